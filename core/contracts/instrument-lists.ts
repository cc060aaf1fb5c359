/**
 * The two instrument list calls of the participant home (spec 01 sections 3 and 7, spec 02
 * section 7): the forms list of the older instrument architecture and the instruments with
 * their instances of the newer one. Timestamps are ISO strings; ids are numbers.
 */
import * as z from "zod/mini";
import { ROLE_CODE } from "./roles.ts";
import { rowId } from "./input-bounds.ts";

/** Clinician role codes that may administer a form unless it says otherwise (spec 02 section 9). */
export const DEFAULT_FORM_PERMISSIONS = [
  ROLE_CODE.clinicalCoordinator,
  ROLE_CODE.clinicalStaff1,
  ROLE_CODE.clinicalStaff2,
  ROLE_CODE.clinicalStaff3,
] as const;
/** Days an instance stays in the to-do list after its start, unless the instrument says otherwise. */
export const DEFAULT_VISIBLE_DAYS = 1;

/** Instrument types (instruments.instrument_type, a definition's type). */
export const INSTRUMENT_TYPE = {
  /** A clinician-rated instrument: the only type this portal administers. */
  clinician: "CLINRO",
  survey: "SURVEY",
  article: "ARTICLE",
  announcement: "ANNOUNCEMENT",
} as const;
export const INSTRUMENT_TYPES = [
  INSTRUMENT_TYPE.clinician,
  INSTRUMENT_TYPE.survey,
  INSTRUMENT_TYPE.article,
  INSTRUMENT_TYPE.announcement,
] as const;
export const instrumentType = z.enum(INSTRUMENT_TYPES);
export type InstrumentType = z.infer<typeof instrumentType>;

/** /control/.../participants/{participantId}/... */
export const participantIdParam = z.object({
  participantId: rowId("participantId"),
});

const studyIdValue = rowId("study_id");

/** GET /control/clinro/participants/{id}/instruments, optional ?study_id */
export const formsListQuery = z.object({ study_id: z.optional(studyIdValue) });
/** GET /control/participants/{id}/instruments/instances?study_id={studyId} */
export const instancesListQuery = z.object({ study_id: studyIdValue });

const timestamp = z.iso.datetime({ offset: true });

/**
 * One form of the older architecture: one delivery of an instrument to the participant.
 * `completed` is the completion time (null while not completed); `completedBy` the completer's
 * display name; `deployed` the start of the delivery.
 */
export const formItem = z.object({
  name: z.string(),
  type: instrumentType,
  instrument_id: z.number().check(z.int()),
  instance_id: z.number().check(z.int()),
  deployed: timestamp,
  expiration: z.nullable(timestamp),
  completed: z.nullable(timestamp),
  completedBy: z.nullable(z.string()),
  permissions: z.array(z.string()),
  /** /studies/{studyId}/instruments/{instrumentId}/{instrument} */
  url: z.string(),
});
export type FormItem = z.infer<typeof formItem>;

export const formsListResponse = z.object({ instruments: z.array(formItem) });
export type FormsListResponse = z.infer<typeof formsListResponse>;

export const visibilityRange = z.object({
  /** Local time h:mm (24 hour), e.g. 9:00 or 17:30. */
  start: z.string().check(z.regex(/^\d{1,2}:\d{2}$/)),
  end: z.string().check(z.regex(/^\d{1,2}:\d{2}$/)),
});
export type VisibilityRange = z.infer<typeof visibilityRange>;

/** The visibility value of instruments shown only inside their visibilityRanges. */
export const SPECIFIC_TIME_VISIBILITY = "specific_time";
/** The recurring scheme of instruments that are always shown while not completed. */
export const PERSISTENT_SCHEME = "persistent";

export const instrumentMetadata = z.looseObject({
  display_name: z.optional(z.string()),
  schedule: z.optional(
    z.looseObject({ recurring: z.optional(z.looseObject({ scheme: z.optional(z.string()) })) }),
  ),
  visibility: z.optional(z.string()),
  visibilityRanges: z.optional(z.array(visibilityRange)),
});
export type InstrumentMetadata = z.infer<typeof instrumentMetadata>;

export const instrumentInstance = z.object({
  instance_id: z.number().check(z.int()),
  start_date: timestamp,
  expiration: z.nullable(timestamp),
  completion: z.nullable(timestamp),
  /** The completer's user id. */
  who_completed: z.nullable(z.number().check(z.int())),
  /** The completer's display name, so the completed tab can say who without another call. */
  who_completed_name: z.nullable(z.string()),
});
export type InstrumentInstance = z.infer<typeof instrumentInstance>;

/** One instrument of the newer architecture with the participant's instances of it. */
export const instrumentWithInstances = z.object({
  instrument_id: z.number().check(z.int()),
  name: z.string(),
  instrument_type: instrumentType,
  permissions: z.array(z.string()),
  visible_days: z.number().check(z.int(), z.nonnegative()),
  metadata: instrumentMetadata,
  url: z.string(),
  instances: z.array(instrumentInstance),
});
export type InstrumentWithInstances = z.infer<typeof instrumentWithInstances>;

export const instancesListResponse = z.object({ instruments: z.array(instrumentWithInstances) });
export type InstancesListResponse = z.infer<typeof instancesListResponse>;

/** The url of an instrument: the survey engine issue serves its definition under it. */
export function instrumentUrl(studyId: number, instrumentId: number, slug: string) {
  return `/studies/${studyId}/instruments/${instrumentId}/${encodeURIComponent(slug)}`;
}
