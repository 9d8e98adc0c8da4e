ALTER TABLE "workspaces" ADD COLUMN "source_sync_interval" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "provider_connections" ADD COLUMN "sync_interval" text;--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "sync_interval" text;--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "last_sync_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "sync_failures" integer DEFAULT 0 NOT NULL;