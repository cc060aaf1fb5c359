-- The site's participant list (issue 26, item 8): when each participant was enrolled, and one
-- index per order of the list so that keyset paging reads only the page it answers.
-- Participants enrolled before this migration keep an unknown (null) enrolment time: the column
-- is added without a default, so they are not given the migration's time, and only then does
-- every new participant get the time of its insert.
ALTER TABLE "participants" ADD COLUMN "enrolled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "participants" ALTER COLUMN "enrolled_at" SET DEFAULT now();--> statement-breakpoint
CREATE INDEX "participants_site_list_id_idx" ON "participants" USING btree ("study_id","site_id","id");--> statement-breakpoint
CREATE INDEX "participants_site_list_subject_id_idx" ON "participants" USING btree ("study_id","site_id","subject_id","id");--> statement-breakpoint
CREATE INDEX "participants_site_list_name_idx" ON "participants" USING btree ("study_id","site_id",lower("lname"),lower("fname"),"id");
