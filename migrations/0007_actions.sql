CREATE TABLE "data_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"tool_id" uuid,
	"name" text NOT NULL,
	"step_number" integer DEFAULT 1 NOT NULL,
	"request_method" text NOT NULL,
	"request_url" text NOT NULL,
	"request_headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"request_body" jsonb,
	"response_mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	CONSTRAINT "data_steps_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "tool_agents" (
	"workspace_id" uuid NOT NULL,
	"tool_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	CONSTRAINT "tool_agents_tool_id_agent_id_pk" PRIMARY KEY("tool_id","agent_id")
);
--> statement-breakpoint
CREATE TABLE "tools" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"always_get" boolean DEFAULT false NOT NULL,
	"source" text NOT NULL,
	"input_fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"output_fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	CONSTRAINT "tools_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "data_steps" ADD CONSTRAINT "data_steps_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_steps" ADD CONSTRAINT "data_steps_workspace_id_tool_id_tools_workspace_id_id_fk" FOREIGN KEY ("workspace_id","tool_id") REFERENCES "public"."tools"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_agents" ADD CONSTRAINT "tool_agents_workspace_id_tool_id_tools_workspace_id_id_fk" FOREIGN KEY ("workspace_id","tool_id") REFERENCES "public"."tools"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_agents" ADD CONSTRAINT "tool_agents_workspace_id_agent_id_agents_workspace_id_id_fk" FOREIGN KEY ("workspace_id","agent_id") REFERENCES "public"."agents"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools" ADD CONSTRAINT "tools_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_steps_tool_idx" ON "data_steps" USING btree ("workspace_id","tool_id","step_number");--> statement-breakpoint
CREATE INDEX "tool_agents_agent_idx" ON "tool_agents" USING btree ("workspace_id","agent_id");--> statement-breakpoint
CREATE INDEX "tools_workspace_idx" ON "tools" USING btree ("workspace_id","always_get","created_at");