CREATE TABLE "fix_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"iteration_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"target_event_id" uuid NOT NULL,
	"root_cause" jsonb NOT NULL,
	"change_type" text NOT NULL,
	"draft_prompt_version_id" uuid,
	"draft_article_id" uuid,
	"draft_rule_version_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fix_iterations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"target_event_id" uuid NOT NULL,
	"previous_iteration_id" uuid,
	"background_job_id" uuid NOT NULL,
	"replay_conversation_id" uuid,
	"replay_event_id" uuid,
	"iteration_number" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"feedback_note" text NOT NULL,
	"summary" text,
	"confidence" text,
	"error" text,
	"published_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"old_answer_snapshot" jsonb,
	"new_answer_snapshot" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "fix_iterations_workspace_id_id_unique" UNIQUE("workspace_id","id"),
	CONSTRAINT "fix_iterations_session_number_unique" UNIQUE("session_id","iteration_number")
);
--> statement-breakpoint
CREATE TABLE "fix_review_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"target_event_id" uuid NOT NULL,
	"target_user_event_id" uuid,
	"agent_id" uuid NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"published_iteration_id" uuid,
	"published_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"closed_reason" text,
	"original_answer_snapshot" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "fix_review_sessions_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "rule_drafts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"base_version" integer,
	"item" jsonb NOT NULL,
	"origin" text DEFAULT 'FIX_REVIEW' NOT NULL,
	"published_version_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rule_drafts_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "fix_changes" ADD CONSTRAINT "fix_changes_workspace_id_iteration_id_fix_iterations_workspace_id_id_fk" FOREIGN KEY ("workspace_id","iteration_id") REFERENCES "public"."fix_iterations"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fix_iterations" ADD CONSTRAINT "fix_iterations_workspace_id_session_id_fix_review_sessions_workspace_id_id_fk" FOREIGN KEY ("workspace_id","session_id") REFERENCES "public"."fix_review_sessions"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fix_review_sessions" ADD CONSTRAINT "fix_review_sessions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fix_review_sessions" ADD CONSTRAINT "fix_review_sessions_workspace_id_conversation_id_conversations_workspace_id_id_fk" FOREIGN KEY ("workspace_id","conversation_id") REFERENCES "public"."conversations"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_drafts" ADD CONSTRAINT "rule_drafts_workspace_id_rule_id_rules_workspace_id_id_fk" FOREIGN KEY ("workspace_id","rule_id") REFERENCES "public"."rules"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fix_changes_iteration_idx" ON "fix_changes" USING btree ("workspace_id","iteration_id");--> statement-breakpoint
CREATE INDEX "fix_iterations_status_idx" ON "fix_iterations" USING btree ("status","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fix_review_sessions_active_idx" ON "fix_review_sessions" USING btree ("workspace_id","target_event_id") WHERE status = 'active';