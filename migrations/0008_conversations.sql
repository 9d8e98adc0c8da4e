CREATE TABLE "conversation_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"role" text NOT NULL,
	"type" text NOT NULL,
	"message" text NOT NULL,
	"external_id" text,
	"external_created_at" timestamp with time zone,
	"csat_rating" integer,
	"feedback" text,
	"approved" boolean,
	"resolved" boolean,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tag_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"used_articles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"user_event_id" uuid,
	"handover" boolean DEFAULT false NOT NULL,
	"escalation_reason" text,
	"sentiment" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"source" text NOT NULL,
	"channel" text NOT NULL,
	"status" text NOT NULL,
	"resolved" boolean,
	"external_id" text,
	"subject_preview" text DEFAULT '' NOT NULL,
	"user_attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"has_feedback" boolean DEFAULT false NOT NULL,
	"used_articles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"used_subfolders" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tag_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"escalation_reason" text,
	"latest_sentiment" text,
	"turns" integer DEFAULT 0 NOT NULL,
	"waiting_flow" jsonb,
	"evaluation" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "conversations_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "conversation_events" ADD CONSTRAINT "conversation_events_workspace_id_conversation_id_conversations_workspace_id_id_fk" FOREIGN KEY ("workspace_id","conversation_id") REFERENCES "public"."conversations"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_workspace_id_agent_id_agents_workspace_id_id_fk" FOREIGN KEY ("workspace_id","agent_id") REFERENCES "public"."agents"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_events_conversation_idx" ON "conversation_events" USING btree ("workspace_id","conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_workspace_created_idx" ON "conversations" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "conversations_agent_created_idx" ON "conversations" USING btree ("workspace_id","agent_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_external_idx" ON "conversations" USING btree ("workspace_id","external_id");--> statement-breakpoint
CREATE INDEX "conversations_email_idx" ON "conversations" USING btree ("workspace_id",lower("user_attributes" ->> 'email'));--> statement-breakpoint
CREATE INDEX "conversations_deleted_idx" ON "conversations" USING btree ("deleted_at");