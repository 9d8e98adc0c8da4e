ALTER TABLE "fix_changes" ADD COLUMN "warnings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "fix_iterations" ADD COLUMN "warnings" jsonb DEFAULT '[]'::jsonb NOT NULL;