CREATE TABLE "visit_room_peers" (
	"peer_id" text PRIMARY KEY NOT NULL,
	"room_name" text NOT NULL,
	"role" text NOT NULL,
	"server_id" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_signal_spill" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "visit_signal_spill_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"payload" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "visits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"study_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"participant_id" integer NOT NULL,
	"room_name" text NOT NULL,
	"visit_time" timestamp with time zone NOT NULL,
	"visit_duration" integer NOT NULL,
	"is_recorded" boolean DEFAULT false NOT NULL,
	"is_adhoc" boolean DEFAULT false NOT NULL,
	"token" text,
	"join_secret_hash" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visits_room_name_unique" UNIQUE("room_name"),
	CONSTRAINT "visits_join_secret_hash_unique" UNIQUE("join_secret_hash"),
	CONSTRAINT "visits_duration_check" CHECK ("visits"."visit_duration" > 0)
);
--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visit_room_peers_room_idx" ON "visit_room_peers" USING btree ("room_name");--> statement-breakpoint
CREATE INDEX "visit_room_peers_server_idx" ON "visit_room_peers" USING btree ("server_id");--> statement-breakpoint
CREATE INDEX "visits_study_site_time_idx" ON "visits" USING btree ("study_id","site_id","visit_time");