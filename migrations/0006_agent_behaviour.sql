CREATE TABLE "guardrail_agents" (
	"workspace_id" uuid NOT NULL,
	"guardrail_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	CONSTRAINT "guardrail_agents_guardrail_id_agent_id_pk" PRIMARY KEY("guardrail_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "guardrails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"stage" text NOT NULL,
	"action" text NOT NULL,
	"config" jsonb NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	CONSTRAINT "guardrails_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "reply_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"reply_type" text NOT NULL,
	"conditions" jsonb NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	CONSTRAINT "reply_rules_workspace_type_unique" UNIQUE("workspace_id","reply_type")
);
--> statement-breakpoint
CREATE TABLE "rule_agents" (
	"workspace_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	CONSTRAINT "rule_agents_rule_id_agent_id_pk" PRIMARY KEY("rule_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "rule_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"item" jsonb NOT NULL,
	"restored_from_version_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "rule_versions_rule_version_unique" UNIQUE("rule_id","version"),
	CONSTRAINT "rule_versions_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"trigger_type" text NOT NULL,
	"input_schema" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"flow_config" jsonb,
	"behavior_instructions" text,
	"version" integer,
	"current_version_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	CONSTRAINT "rules_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "tag_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"prompt" text DEFAULT '' NOT NULL,
	"multiselect" boolean DEFAULT false NOT NULL,
	"mandatory" boolean DEFAULT false NOT NULL,
	"is_output_tag_group" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	CONSTRAINT "tag_groups_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid,
	"tag_group_id" uuid NOT NULL,
	"tag_name" text NOT NULL,
	"tag_description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "guardrail_agents" ADD CONSTRAINT "guardrail_agents_workspace_id_guardrail_id_guardrails_workspace_id_id_fk" FOREIGN KEY ("workspace_id","guardrail_id") REFERENCES "public"."guardrails"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardrail_agents" ADD CONSTRAINT "guardrail_agents_workspace_id_agent_id_agents_workspace_id_id_fk" FOREIGN KEY ("workspace_id","agent_id") REFERENCES "public"."agents"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guardrails" ADD CONSTRAINT "guardrails_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reply_rules" ADD CONSTRAINT "reply_rules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_agents" ADD CONSTRAINT "rule_agents_workspace_id_rule_id_rules_workspace_id_id_fk" FOREIGN KEY ("workspace_id","rule_id") REFERENCES "public"."rules"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_agents" ADD CONSTRAINT "rule_agents_workspace_id_agent_id_agents_workspace_id_id_fk" FOREIGN KEY ("workspace_id","agent_id") REFERENCES "public"."agents"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rule_versions" ADD CONSTRAINT "rule_versions_workspace_id_rule_id_rules_workspace_id_id_fk" FOREIGN KEY ("workspace_id","rule_id") REFERENCES "public"."rules"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rules" ADD CONSTRAINT "rules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_groups" ADD CONSTRAINT "tag_groups_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_tag_group_id_tag_groups_id_fk" FOREIGN KEY ("tag_group_id") REFERENCES "public"."tag_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_workspace_id_tag_group_id_tag_groups_workspace_id_id_fk" FOREIGN KEY ("workspace_id","tag_group_id") REFERENCES "public"."tag_groups"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "guardrail_agents_agent_idx" ON "guardrail_agents" USING btree ("workspace_id","agent_id");--> statement-breakpoint
CREATE INDEX "guardrails_workspace_idx" ON "guardrails" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "rule_agents_agent_idx" ON "rule_agents" USING btree ("workspace_id","agent_id");--> statement-breakpoint
CREATE INDEX "rules_workspace_type_idx" ON "rules" USING btree ("workspace_id","type","status","updated_at");--> statement-breakpoint
CREATE INDEX "tag_groups_workspace_idx" ON "tag_groups" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_group_name_unique" ON "tags" USING btree ("tag_group_id",lower("tag_name"));--> statement-breakpoint
CREATE INDEX "tags_workspace_group_idx" ON "tags" USING btree ("workspace_id","tag_group_id");--> statement-breakpoint
-- Parley's read-only system tag groups (hand-written): every workspace sees them (workspace_id null);
-- their ids are fixed and listed in src/modules/tags/system-tags.ts.
INSERT INTO "tag_groups" ("id", "workspace_id", "title", "description", "prompt", "multiselect", "mandatory", "is_output_tag_group", "created_at", "updated_at") VALUES
  ('a0000000-0000-4000-8000-000000000001', NULL, 'Conversation Status', 'Where a conversation stands, set by Parley after every agent reply.', 'The status of the conversation after the agent''s reply.', false, true, true, '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000002', NULL, 'Escalation Reason', 'Why the agent handed a conversation over to a person.', 'The reason the agent handed the conversation over.', false, false, true, '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z');--> statement-breakpoint
INSERT INTO "tags" ("id", "workspace_id", "tag_group_id", "tag_name", "tag_description", "created_at", "updated_at") VALUES
  ('a0000000-0000-4000-8000-000000000101', NULL, 'a0000000-0000-4000-8000-000000000001', 'Waiting for Customer', 'The agent answered; no verdict from the customer yet.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000102', NULL, 'a0000000-0000-4000-8000-000000000001', 'Resolved by AI', 'The customer confirmed the answer helped, or resolution is assumed.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000103', NULL, 'a0000000-0000-4000-8000-000000000001', 'Escalated to Human Agent', 'The agent handed the conversation over to a person.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000104', NULL, 'a0000000-0000-4000-8000-000000000001', 'Unresolved', 'The customer said the answer did not help.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000105', NULL, 'a0000000-0000-4000-8000-000000000001', 'No Reply', 'A NO_REPLY rule kept the agent silent.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000201', NULL, 'a0000000-0000-4000-8000-000000000002', 'missing_knowledge', 'The knowledge did not answer the question.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000202', NULL, 'a0000000-0000-4000-8000-000000000002', 'customer_request', 'The customer asked for a person.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000203', NULL, 'a0000000-0000-4000-8000-000000000002', 'rule_escalation', 'An intent rule''s flow handed over.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000204', NULL, 'a0000000-0000-4000-8000-000000000002', 'guardrail_block', 'A guardrail blocked the message or the answer.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000205', NULL, 'a0000000-0000-4000-8000-000000000002', 'tool_failure', 'An action the agent needed failed.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000206', NULL, 'a0000000-0000-4000-8000-000000000002', 'low_confidence', 'The agent was not confident enough to answer.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000207', NULL, 'a0000000-0000-4000-8000-000000000002', 'negative_sentiment', 'The customer was upset.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z'),
  ('a0000000-0000-4000-8000-000000000208', NULL, 'a0000000-0000-4000-8000-000000000002', 'other', 'Any other reason.', '2026-11-24T00:00:00Z', '2026-11-24T00:00:00Z');
