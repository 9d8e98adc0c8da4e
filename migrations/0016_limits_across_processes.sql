CREATE TABLE "politeness_hosts" (
	"host" text PRIMARY KEY NOT NULL,
	"next_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "politeness_slots" (
	"host" text NOT NULL,
	"slot" smallint NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "politeness_slots_host_slot_pk" PRIMARY KEY("host","slot")
);
--> statement-breakpoint
CREATE TABLE "rate_limit_windows" (
	"bucket" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);--> statement-breakpoint
-- Hand-written (drizzle-kit does not model UNLOGGED): counters and leases need no WAL. A write
-- commits without waiting for a flush, and a crash empties the tables, which only resets limits.
ALTER TABLE "rate_limit_windows" SET UNLOGGED;--> statement-breakpoint
ALTER TABLE "politeness_hosts" SET UNLOGGED;--> statement-breakpoint
ALTER TABLE "politeness_slots" SET UNLOGGED;
