CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"workspace_id" uuid,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"key_id" uuid,
	"key_name" text,
	"action" text NOT NULL,
	"resource_type" text,
	"resource_id" text,
	"changes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"request_id" text
);
--> statement-breakpoint
CREATE INDEX "audit_log_workspace_seq_idx" ON "audit_log" USING btree ("workspace_id","seq");--> statement-breakpoint
CREATE INDEX "audit_log_workspace_resource_idx" ON "audit_log" USING btree ("workspace_id","resource_id");--> statement-breakpoint
CREATE INDEX "audit_log_occurred_idx" ON "audit_log" USING btree ("occurred_at");