CREATE TABLE "article_embeddings" (
	"article_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"model" text NOT NULL,
	"content_hash" text NOT NULL,
	"embedding" real[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "article_search" (
	"article_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"document" "tsvector" NOT NULL,
	"lengths" integer[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"origin" text NOT NULL,
	"document_id" uuid,
	"hc_event_id" uuid,
	"candidate_knowledge" text,
	"instructions" text DEFAULT '' NOT NULL,
	"allowed_ops" text[] NOT NULL,
	"bot_id" uuid,
	"is_draft" boolean NOT NULL,
	"status" text NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"hc_article_id" uuid,
	"operation" text,
	"reason" text,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "article_embeddings" ADD CONSTRAINT "article_embeddings_workspace_id_article_id_articles_workspace_id_id_fk" FOREIGN KEY ("workspace_id","article_id") REFERENCES "public"."articles"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_search" ADD CONSTRAINT "article_search_workspace_id_article_id_articles_workspace_id_id_fk" FOREIGN KEY ("workspace_id","article_id") REFERENCES "public"."articles"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_jobs" ADD CONSTRAINT "knowledge_jobs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_embeddings_workspace_idx" ON "article_embeddings" USING btree ("workspace_id","model");--> statement-breakpoint
CREATE INDEX "article_search_document_idx" ON "article_search" USING gin ("document");--> statement-breakpoint
CREATE INDEX "article_search_workspace_idx" ON "article_search" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "knowledge_jobs_workspace_idx" ON "knowledge_jobs" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "knowledge_jobs_pending_idx" ON "knowledge_jobs" USING btree ("status","updated_at") WHERE "knowledge_jobs"."status" IN ('PENDING', 'IN_PROGRESS');--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): article_search follows every article's text.
CREATE FUNCTION "parley_tsvector_tokens"(v tsvector) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0)::integer FROM unnest(v) $$;
--> statement-breakpoint
CREATE FUNCTION "parley_article_search_sync"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  t tsvector := to_tsvector('english', NEW.title);
  q tsvector := to_tsvector('english', array_to_string(NEW.questions, E'\n'));
  k tsvector := to_tsvector('english', array_to_string(NEW.keywords, E'\n'));
  b tsvector := to_tsvector('english', NEW.main_knowledge);
BEGIN
  INSERT INTO article_search (article_id, workspace_id, document, lengths)
  VALUES (
    NEW.id, NEW.workspace_id,
    setweight(t, 'A') || setweight(q, 'B') || setweight(k, 'C') || setweight(b, 'D'),
    ARRAY[parley_tsvector_tokens(t), parley_tsvector_tokens(q), parley_tsvector_tokens(k), parley_tsvector_tokens(b)]
  )
  ON CONFLICT (article_id) DO UPDATE SET document = EXCLUDED.document, lengths = EXCLUDED.lengths;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "articles_search_sync" AFTER INSERT OR UPDATE OF title, questions, keywords, main_knowledge ON "articles"
  FOR EACH ROW EXECUTE FUNCTION parley_article_search_sync();
--> statement-breakpoint
-- Existing articles: touching the indexed columns runs the trigger once for each.
UPDATE "articles" SET title = title;
