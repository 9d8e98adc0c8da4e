CREATE TABLE "source_files" (
	"source_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "source_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"source_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"source" text NOT NULL,
	"external_id" text NOT NULL,
	"original_url" text NOT NULL,
	"domain" text,
	"title" text NOT NULL,
	"storage_url" text,
	"mime_type" text DEFAULT '' NOT NULL,
	"type" text,
	"english" boolean DEFAULT true NOT NULL,
	"baser" boolean DEFAULT false NOT NULL,
	"success" boolean DEFAULT false NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"paragraphs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"old_paragraphs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"content_fingerprint" text,
	"body_hash" text,
	"etag" text,
	"last_modified" text,
	"linked_knowledge_id" uuid,
	"linked_operation" text,
	"linked_reason" text,
	"linked_job_id" uuid,
	"linked_job_status" text,
	"changed" boolean DEFAULT false NOT NULL,
	"misc" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sources_workspace_id_id_unique" UNIQUE("workspace_id","id"),
	CONSTRAINT "sources_workspace_source_external_unique" UNIQUE("workspace_id","source","external_id")
);
--> statement-breakpoint
ALTER TABLE "source_files" ADD CONSTRAINT "source_files_workspace_id_source_id_sources_workspace_id_id_fk" FOREIGN KEY ("workspace_id","source_id") REFERENCES "public"."sources"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "source_jobs" ADD CONSTRAINT "source_jobs_workspace_id_source_id_sources_workspace_id_id_fk" FOREIGN KEY ("workspace_id","source_id") REFERENCES "public"."sources"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sources" ADD CONSTRAINT "sources_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "source_jobs_source_idx" ON "source_jobs" USING btree ("workspace_id","source_id","created_at");--> statement-breakpoint
CREATE INDEX "sources_workspace_order_idx" ON "sources" USING btree ("workspace_id","updated_at","external_id","id");--> statement-breakpoint
CREATE INDEX "sources_workspace_linked_idx" ON "sources" USING btree ("workspace_id","linked_knowledge_id");--> statement-breakpoint
CREATE INDEX "sources_pending_idx" ON "sources" USING btree ("linked_job_status","updated_at") WHERE "sources"."linked_job_status" IN ('PENDING', 'IN_PROGRESS');