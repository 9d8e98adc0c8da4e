ALTER TABLE "knowledge_jobs" ALTER COLUMN "created_by" DROP NOT NULL;--> statement-breakpoint
-- A source never points at an article that is gone: links left by older versions are dropped first.
UPDATE "sources" s SET "linked_knowledge_id" = NULL, "linked_operation" = NULL, "linked_reason" = NULL, "changed" = false
  WHERE s."linked_knowledge_id" IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM "articles" a WHERE a."workspace_id" = s."workspace_id" AND a."id" = s."linked_knowledge_id");--> statement-breakpoint
-- Deferred (hand-written; drizzle-kit cannot declare it): checked at commit, so deleting articles and
-- the `article.deleted` listener that unlinks their sources commit together (sources.listeners.ts).
ALTER TABLE "sources" ADD CONSTRAINT "sources_linked_knowledge_fk" FOREIGN KEY ("workspace_id","linked_knowledge_id") REFERENCES "public"."articles"("workspace_id","id") ON DELETE no action ON UPDATE no action DEFERRABLE INITIALLY DEFERRED;
