CREATE TABLE "article_terms" (
	"workspace_id" uuid NOT NULL,
	"lexeme" text NOT NULL,
	"article_id" uuid NOT NULL,
	"counts" integer[] NOT NULL,
	CONSTRAINT "article_terms_workspace_id_lexeme_article_id_pk" PRIMARY KEY("workspace_id","lexeme","article_id")
);
--> statement-breakpoint
ALTER TABLE "article_terms" ADD CONSTRAINT "article_terms_article_id_article_search_article_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."article_search"("article_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_terms_article_idx" ON "article_terms" USING btree ("article_id");--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): article_terms follows article_search.
CREATE FUNCTION "parley_article_terms_sync"() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  DELETE FROM article_terms WHERE article_id = NEW.article_id;
  INSERT INTO article_terms (workspace_id, lexeme, article_id, counts)
  SELECT NEW.workspace_id, u.lexeme, NEW.article_id, ARRAY[
    coalesce(array_length(array_positions(u.weights, 'A'), 1), 0),
    coalesce(array_length(array_positions(u.weights, 'B'), 1), 0),
    coalesce(array_length(array_positions(u.weights, 'C'), 1), 0),
    coalesce(array_length(array_positions(u.weights, 'D'), 1), 0)]
  FROM unnest(NEW.document) u;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "article_search_terms_sync" AFTER INSERT OR UPDATE OF document ON "article_search"
  FOR EACH ROW EXECUTE FUNCTION parley_article_terms_sync();
--> statement-breakpoint
-- Existing articles: every indexed document once.
INSERT INTO article_terms (workspace_id, lexeme, article_id, counts)
SELECT s.workspace_id, u.lexeme, s.article_id, ARRAY[
  coalesce(array_length(array_positions(u.weights, 'A'), 1), 0),
  coalesce(array_length(array_positions(u.weights, 'B'), 1), 0),
  coalesce(array_length(array_positions(u.weights, 'C'), 1), 0),
  coalesce(array_length(array_positions(u.weights, 'D'), 1), 0)]
FROM article_search s, unnest(s.document) u;
