-- Hand-written (drizzle-kit models neither INCLUDE nor database settings).
-- Knowledge search reads a query's postings (workspace, lexeme) with their per-field counts: with the
-- counts in the primary key's leaves it reads them from the index alone, not one table row per posting.
ALTER TABLE "article_terms" DROP CONSTRAINT "article_terms_workspace_id_lexeme_article_id_pk";--> statement-breakpoint
ALTER TABLE "article_terms" ADD CONSTRAINT "article_terms_workspace_id_lexeme_article_id_pk" PRIMARY KEY ("workspace_id", "lexeme", "article_id") INCLUDE ("counts");--> statement-breakpoint
-- PostgreSQL compiles a statement whose planned cost passes jit_above_cost to machine code first; on
-- Parley's statements (analytics over a window, search over a large scope) the compilation cost up to
-- 2 s and the run it sped up well under that. Off for this database when the migrating role owns it
-- (an operator can set it again with ALTER DATABASE ... SET jit = on). PGlite has no JIT; the setting
-- changes nothing there.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_database WHERE datname = current_database() AND pg_has_role(current_user, datdba, 'MEMBER')) THEN
    EXECUTE format('ALTER DATABASE %I SET jit = off', current_database());
  END IF;
END $$;
