CREATE TABLE "provider_connections" (
	"workspace_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"sealed_credentials" text NOT NULL,
	"base_url" text NOT NULL,
	"account" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_connections_workspace_id_provider_pk" PRIMARY KEY("workspace_id","provider")
);
--> statement-breakpoint
ALTER TABLE "provider_connections" ADD CONSTRAINT "provider_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The wire's provider names are the deployed ones (wave2-decisions §9), not the specification's placeholders.
UPDATE "sources" SET "source" = CASE "source"
	WHEN 'provider_drive' THEN 'googledrive'
	WHEN 'provider_notes' THEN 'notion'
	WHEN 'provider_helpdesk' THEN 'zendesk'
	WHEN 'provider_wiki' THEN 'confluence'
	ELSE "source" END
WHERE "source" LIKE 'provider\_%';
