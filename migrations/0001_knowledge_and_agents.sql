CREATE TABLE "agents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prompt_version" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_by" uuid,
	"updated_by" uuid,
	CONSTRAINT "agents_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "prompt_drafts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"base_version" integer,
	"prompts" jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"origin" text DEFAULT 'API_CREATED' NOT NULL,
	"published_version_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	CONSTRAINT "prompt_drafts_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "prompt_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"prompts" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"draft_id" uuid,
	CONSTRAINT "prompt_versions_agent_version_unique" UNIQUE("agent_id","version"),
	CONSTRAINT "prompt_versions_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "agent_folders" (
	"workspace_id" uuid NOT NULL,
	"agent_id" uuid NOT NULL,
	"folder_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_folders_workspace_id_agent_id_folder_id_pk" PRIMARY KEY("workspace_id","agent_id","folder_id")
);
--> statement-breakpoint
CREATE TABLE "article_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"article_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	CONSTRAINT "article_versions_article_version_unique" UNIQUE("article_id","version")
);
--> statement-breakpoint
CREATE TABLE "articles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"parent_folder_id" uuid NOT NULL,
	"title" text NOT NULL,
	"main_knowledge" text NOT NULL,
	"agent_instruction" text DEFAULT '' NOT NULL,
	"questions" text[] DEFAULT '{}'::text[] NOT NULL,
	"keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"escalation" boolean DEFAULT false NOT NULL,
	"misc" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"public" boolean DEFAULT false NOT NULL,
	"is_draft" boolean DEFAULT false NOT NULL,
	"is_draft_published" boolean DEFAULT false NOT NULL,
	"original_article_id" uuid,
	"original_article_version" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	CONSTRAINT "articles_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
CREATE TABLE "folders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"parent_folder_id" uuid,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	CONSTRAINT "folders_workspace_id_id_unique" UNIQUE("workspace_id","id")
);
--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_drafts" ADD CONSTRAINT "prompt_drafts_workspace_id_agent_id_agents_workspace_id_id_fk" FOREIGN KEY ("workspace_id","agent_id") REFERENCES "public"."agents"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_versions" ADD CONSTRAINT "prompt_versions_workspace_id_agent_id_agents_workspace_id_id_fk" FOREIGN KEY ("workspace_id","agent_id") REFERENCES "public"."agents"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_folders" ADD CONSTRAINT "agent_folders_workspace_id_agent_id_agents_workspace_id_id_fk" FOREIGN KEY ("workspace_id","agent_id") REFERENCES "public"."agents"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_folders" ADD CONSTRAINT "agent_folders_workspace_id_folder_id_folders_workspace_id_id_fk" FOREIGN KEY ("workspace_id","folder_id") REFERENCES "public"."folders"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_versions" ADD CONSTRAINT "article_versions_workspace_id_article_id_articles_workspace_id_id_fk" FOREIGN KEY ("workspace_id","article_id") REFERENCES "public"."articles"("workspace_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_workspace_id_parent_folder_id_folders_workspace_id_id_fk" FOREIGN KEY ("workspace_id","parent_folder_id") REFERENCES "public"."folders"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_workspace_id_original_article_id_articles_workspace_id_id_fk" FOREIGN KEY ("workspace_id","original_article_id") REFERENCES "public"."articles"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folders" ADD CONSTRAINT "folders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folders" ADD CONSTRAINT "folders_workspace_id_parent_folder_id_folders_workspace_id_id_fk" FOREIGN KEY ("workspace_id","parent_folder_id") REFERENCES "public"."folders"("workspace_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agents_workspace_updated_idx" ON "agents" USING btree ("workspace_id","updated_at");--> statement-breakpoint
CREATE INDEX "prompt_drafts_agent_idx" ON "prompt_drafts" USING btree ("workspace_id","agent_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_folders_folder_idx" ON "agent_folders" USING btree ("workspace_id","folder_id");--> statement-breakpoint
CREATE INDEX "articles_workspace_updated_idx" ON "articles" USING btree ("workspace_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "articles_workspace_folder_idx" ON "articles" USING btree ("workspace_id","parent_folder_id");--> statement-breakpoint
CREATE INDEX "articles_workspace_original_idx" ON "articles" USING btree ("workspace_id","original_article_id");--> statement-breakpoint
CREATE INDEX "folders_workspace_parent_idx" ON "folders" USING btree ("workspace_id","parent_folder_id");