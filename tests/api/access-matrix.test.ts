/**
 * The access matrix: every demo role × every demo study and site × every declared call whose
 * scope (core/contracts/http/define-call.ts: CallScope) is a study, a site, a participant or the
 * portal's administration, each cell answering as the policy says: a success where the role
 * holds the study (and, for a site or participant call, the site) and the call's role rule
 * allows it; otherwise a 403 or 404 whose body is an error and nothing else; never a 5xx.
 *
 * What a cell needs is read from the call's declared scope, not written here: a call declared
 * with a study scope is probed as one, so a declaration that says less than the server checks,
 * or a server that checks less than its declaration says, fails its row.
 *
 * The policy is computed here from the seed's declarations (DEMO_ACCOUNTS), not from the
 * database the server reads. To have a study held without one of its sites, staff2 loses
 * Lakeside (1012) of MDD-301 before the matrix runs, and is given the export right in MDD-301
 * (so that an export is probed at a site held and one not held); consents of a study a role does
 * not hold come from a consent added to GAD-118 (103).
 *
 * The calls are read from core/contracts/calls/: a new call must be given a row here (SPECS)
 * unless its scope is public or own, or this file fails.
 */
import { constants, createPublicKey, publicEncrypt, randomUUID } from "node:crypto";
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, expect, it } from "vitest";
import { INSTRUMENT_TYPE } from "../../core/contracts/instrument-lists.ts";
import { isPermitted } from "../../core/contracts/instrument-permission.ts";
import { errorBody } from "../../core/contracts/errors.ts";
import type { CallScope } from "../../core/contracts/http/define-call.ts";
import { managementRoleAllows } from "../../core/contracts/management-roles.ts";
import { STUDY_RIGHT } from "../../core/contracts/study-rights.ts";
import { ROLE_CODE, WITNESS_ROLE } from "../../core/contracts/roles.ts";
import { signingKeyResponse } from "../../core/contracts/signing-key.ts";
import type { SurveyDefinition } from "../../core/contracts/survey-definition.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import {
  consentParticipants,
  consents,
  instrumentDefinitions,
  instruments,
  participants,
  sitePermissions,
  studyPermissions,
  users,
  visits,
} from "../../server/db/schema.ts";
import { DEMO_ACCOUNTS, DEMO_PENDING_ACCOUNT, DEMO_STUDIES } from "../../server/seed/demo.ts";
import { DEMO_PASSWORD, describeOnEachDatabase, type RequestOptions } from "../support/api-harness.ts";
import { loadCallDeclarations } from "../support/call-declarations.ts";
import { definitionJsonOf, parseDefinitionOrThrow, payloadFor } from "../support/submissions.ts";
import { testImage } from "../support/test-images.ts";

const ROLES = ["coordinator", "staff1", "staff2", "staff3", "witness", "admin"] as const;
type Role = (typeof ROLES)[number];
const accountOf = (role: Role) => DEMO_ACCOUNTS.find((account) => account.username === `${role}@demo.test`)!;

/** The site staff2 loses before the matrix: MDD-301 held, Lakeside not. */
const REMOVED = { role: "staff2" as Role, siteId: 1012 };
/**
 * A participant of Lakeside whose name and subject id are this marker: no answer to staff2, who
 * lacks Lakeside, may hold it, granted or refused.
 */
const LAKESIDE_MARKER = `Lakeside-only-${randomUUID()}`;
/** The export right staff2 is given before the matrix, in MDD-301 (where Lakeside is gone). */
const EXPORT_GIVEN = { role: "staff2" as Role, studyId: 101 };

type Location = { studyId: number; siteId: number };
const LOCATIONS: Location[] = DEMO_STUDIES.flatMap((study) =>
  study.sites.map((site) => ({ studyId: study.id, siteId: site.id })),
);

/** The role's clinician role code in the study, per the seed (undefined: no permission). */
const studyRole = (role: Role, studyId: number): string | undefined => accountOf(role).studies[studyId];
const holdsSite = (role: Role, location: Location) =>
  studyRole(role, location.studyId) !== undefined &&
  !(role === REMOVED.role && location.siteId === REMOVED.siteId);

type Fixture = {
  /** Per site: a participant with an email address (offered the site's consent in MDD-301). */
  participant: Map<number, number>;
  /** Per study: an instrument with a definition, its slug and permissions. */
  instrument: Map<number, { id: number; slug: string; permissions: string[] }>;
  /** Per study: a consent (MDD-301's published one; GAD-118's added, without versions). */
  consent: Map<number, { id: number; version: number }>;
  /** SCZ-214's current ad hoc visit room. */
  room: { studyId: number; siteId: number; roomName: string };
  userId: Map<Role, number>;
  /** The demo's invited user who has not activated (the staff calls' target). */
  pendingUserId: number;
  tokens: Map<Role, string>;
  png: Buffer;
};

type Cell = { role: Role; location: Location; fixture: Fixture };
type Level = "study" | "site" | "none";

/** What a call's declared scope asks the caller to hold; public and own calls are not probed. */
const LEVEL_OF_SCOPE: Record<CallScope, Level | undefined> = {
  study: "study",
  site: "site",
  participant: "site",
  admin: "none",
  own: undefined,
  public: undefined,
};
type Probe = {
  method: "GET" | "POST" | "PATCH" | "PUT";
  url: string;
  options?: RequestOptions;
  /** This request's level, when it is not the row's. */
  level?: Level;
};

type Spec = {
  /** Where to probe (default: every demo site). */
  locations?: (fixture: Fixture) => Location[];
  /** Cells that say nothing about access (a participant not offered the consent), left out. */
  skip?: (cell: Cell) => boolean;
  /** A role rule on top of the permissions (default: any role holding them). */
  mayAct?: (cell: Cell) => boolean;
  /** The request (or requests, each answering the same) of the cell. */
  probe: (cell: Cell) => Probe | Probe[] | Promise<Probe | Probe[]>;
  /** The answers where permitted (the default: 200). */
  success?: (cell: Cell) => number[];
};

const json = (body: unknown): RequestOptions => ({ body, headers: { "idempotency-key": randomUUID() } });
const notWitness = ({ role, location }: Cell) => studyRole(role, location.studyId) !== WITNESS_ROLE;

async function multipartUpload(fields: Record<string, string>, png: Buffer) {
  const form = new FormData();
  form.set("upload_file", new Blob([png], { type: "image/png" }), "photo.png");
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    headers: { "content-type": request.headers.get("content-type")!, "idempotency-key": randomUUID() },
  };
}

/** Consent calls probe the consent of the location's study (MDD-301's sites, and GAD-118's). */
const consentLocations = (fixture: Fixture) =>
  LOCATIONS.filter((location) => fixture.consent.has(location.studyId));
/** Where the consent can be answered: MDD-301 (GAD-118's has no version: probed only where refused). */
const consentSuccess = (cell: Cell, ok: number[]) => (cell.location.studyId === 101 ? ok : [404]);
/** GAD-118's consent offers nobody: a role holding GAD-118 would be refused as not offered. */
const notOfferedCell = ({ role, location }: Cell) =>
  location.studyId !== 101 && studyRole(role, location.studyId) !== undefined;

/** Who adds and changes participants: a management role allowing it, or a coordinator of the study. */
const mayEnrol = ({ role, location }: Cell) =>
  managementRoleAllows(accountOf(role).role, "participants") ||
  studyRole(role, location.studyId) === ROLE_CODE.clinicalCoordinator;
let matrixPeople = 0;
const matrixPerson = (role: Role, location: Location) => ({
  subject_id: `MATRIX-${role}-${location.siteId}-${++matrixPeople}`,
  fname: "Matrix",
  lname: "Person",
  date_of_birth: "1980-01-01",
  gender: null,
  email: `matrix.${role}@example.test`,
});

/** Every call that names a study, site, participant, consent, visit, instrument or user. */
const SPECS: Record<string, Spec> = {
  getStudyCall: {
    probe: ({ location }) => ({ method: "GET", url: `/control/studies/${location.studyId}` }),
  },
  getParticipantCall: {
    probe: ({ location, fixture }) => ({
      method: "GET",
      url: `/control/studies/${location.studyId}/sites/${location.siteId}/participants/${fixture.participant.get(location.siteId)}`,
    }),
  },
  searchParticipantsCall: {
    probe: ({ location }) => ({
      method: "GET",
      url: `/control/studies/${location.studyId}/sites/${location.siteId}/clinro_search?search_value=a`,
    }),
  },
  listParticipantsCall: {
    probe: ({ location }) => ({
      method: "GET",
      url: `/control/studies/${location.studyId}/sites/${location.siteId}/participants?sort=subject_id&limit=5`,
    }),
  },
  listMyConsentsCall: {
    probe: ({ location }) => ({
      method: "GET",
      url: `/control/v2/clinro/me/consents?study_id=${location.studyId}&site_id=${location.siteId}`,
    }),
  },
  consentParticipantsCall: {
    locations: consentLocations,
    probe: ({ location, fixture }) => ({
      method: "GET",
      url: `/control/v2/clinro/me/consents/${fixture.consent.get(location.studyId)!.id}?site_id=${location.siteId}`,
    }),
    // A consent without a published version has no participants yet: an empty list.
    success: () => [200],
  },
  getConsentCall: {
    locations: consentLocations,
    skip: notOfferedCell,
    probe: ({ location, fixture }) => {
      const consent = fixture.consent.get(location.studyId)!;
      return {
        method: "GET",
        url: `/control/v2/clinro/consent?consent_id=${consent.id}&version=${consent.version}&ptp_id=${fixture.participant.get(location.siteId)}`,
      };
    },
    success: (cell) => consentSuccess(cell, [200]),
  },
  getBlankConsentCall: {
    locations: consentLocations,
    probe: ({ location, fixture }) => {
      const consent = fixture.consent.get(location.studyId)!;
      return {
        method: "GET",
        url: `/control/v2/clinro/consent/blank?consent_id=${consent.id}&version=${consent.version}`,
      };
    },
    success: (cell) => consentSuccess(cell, [200]),
  },
  consentPdfCall: {
    locations: consentLocations,
    probe: ({ location, fixture }) => {
      const consent = fixture.consent.get(location.studyId)!;
      return {
        method: "GET",
        url: `/control/v2/consent/pdf?consent_id=${consent.id}&version=${consent.version}&platform=clinro`,
      };
    },
    success: (cell) => consentSuccess(cell, [200]),
  },
  consentEmailCall: {
    locations: consentLocations,
    skip: notOfferedCell,
    probe: ({ location, fixture }) => {
      const consent = fixture.consent.get(location.studyId)!;
      return {
        method: "GET",
        url: `/control/v2/clinro/email?consent_id=${consent.id}&version=${consent.version}&participant_id=${fixture.participant.get(location.siteId)}`,
      };
    },
    success: (cell) => consentSuccess(cell, [200]),
  },
  consentDownloadCall: {
    locations: consentLocations,
    skip: notOfferedCell,
    probe: ({ location, fixture }) => ({
      method: "GET",
      url: `/control/v2/studies/${location.studyId}/participants/${fixture.participant.get(location.siteId)}/download?consent_id=${fixture.consent.get(location.studyId)!.id}`,
    }),
    // The participant has not completed it: 409 once access is granted (the consent tests
    // download completed ones).
    success: (cell) => consentSuccess(cell, [409]),
  },
  postClinicianConsentCall: {
    locations: consentLocations,
    skip: notOfferedCell,
    mayAct: notWitness,
    probe: (cell) => consentPost(cell, "clinro"),
    // Access granted, the session is then judged on its content: this one-record session is
    // incomplete or unsigned (422); the consent tests submit complete ones.
    success: (cell) => consentSuccess(cell, [200, 422]),
  },
  // The signing password's checks name the consent and participant signed for. The check is
  // probed with the demo accounts' own password: an accepted try never counts towards the cap,
  // which would end a role's session halfway through the matrix.
  checkSigningPasswordCall: {
    locations: consentLocations,
    skip: notOfferedCell,
    probe: ({ location, fixture }) => ({
      method: "POST",
      url: "/control/v2/signing-password/check",
      options: {
        body: {
          ...signingProof!,
          signer_role: "clinro",
          consent_id: fixture.consent.get(location.studyId)!.id,
          participant_id: fixture.participant.get(location.siteId),
        },
      },
    }),
    success: (cell) => consentSuccess(cell, [204]),
  },
  reportSigningRefusalCall: {
    locations: consentLocations,
    skip: notOfferedCell,
    probe: ({ location, fixture }) => ({
      method: "POST",
      url: "/control/v2/signing-password/refusals",
      options: json({
        attempted_at: new Date().toISOString(),
        signer_role: "clinro",
        consent_id: fixture.consent.get(location.studyId)!.id,
        participant_id: fixture.participant.get(location.siteId),
      }),
    }),
    success: (cell) => consentSuccess(cell, [200]),
  },
  postWitnessConsentCall: {
    locations: consentLocations,
    skip: notOfferedCell,
    mayAct: (cell) => !notWitness(cell),
    probe: (cell) => consentPost(cell, "witness"),
    success: (cell) => consentSuccess(cell, [200, 422]),
  },
  listFormsCall: {
    probe: ({ location, fixture }) => ({
      method: "GET",
      url: `/control/clinro/participants/${fixture.participant.get(location.siteId)}/instruments?study_id=${location.studyId}`,
    }),
  },
  listInstancesCall: {
    probe: ({ location, fixture }) => ({
      method: "GET",
      url: `/control/participants/${fixture.participant.get(location.siteId)}/instruments/instances?study_id=${location.studyId}`,
    }),
  },
  getDefinitionCall: {
    probe: ({ location, fixture }) => {
      const instrument = fixture.instrument.get(location.studyId)!;
      return {
        method: "GET",
        url: `/control/studies/${location.studyId}/instruments/${instrument.id}/${instrument.slug}`,
      };
    },
  },
  getAdminDefinitionCall: {
    probe: ({ location, fixture }) => {
      const instrument = fixture.instrument.get(location.studyId)!;
      return {
        method: "GET",
        url: `/control/admin/studies/${location.studyId}/instruments/${instrument.id}/${instrument.slug}`,
      };
    },
  },
  postSubmissionCall: {
    mayAct: ({ role, location, fixture }) =>
      isPermitted(fixture.instrument.get(location.studyId)!.permissions, studyRole(role, location.studyId)),
    probe: submissionPost,
    // Access granted, the submission is then judged on its answers (none here: its required
    // questions missing, 400), or, at MDD-301 (consent first), refused for the participant's
    // consent still open (409, tests/api/consent-first.test.ts); the submission tests store
    // complete ones.
    success: () => [201, 400, 409, 422],
  },
  instrumentHistoryCall: {
    probe: ({ location, fixture }) => ({
      method: "GET",
      url: `/control/participants/${fixture.participant.get(location.siteId)}/instrument_history/clinro`,
    }),
  },
  submissionAnswersCall: {
    probe: ({ location, fixture }) => ({
      method: "GET",
      url: `/control/participants/${fixture.participant.get(location.siteId)}/instrument_history/clinro/999999`,
    }),
    // The participant is checked first: a user who may see them is told the submission does not
    // exist (the fixture's participants have none), anyone else is refused.
    success: () => [404],
  },
  pendingInstrumentsCall: {
    probe: ({ location }) => ({
      method: "GET",
      url: `/control/pending_instruments?study_id=${location.studyId}`,
    }),
  },
  listAnnouncementInstrumentsCall: {
    probe: ({ location }) => ({
      method: "GET",
      url: `/control/clinro/me/announcement_instruments?study_id=${location.studyId}`,
    }),
  },
  postEventsCall: {
    // An event naming the study alone, and one naming the site's participant in it.
    probe: ({ location, fixture }) =>
      [{}, { participant: fixture.participant.get(location.siteId) }].map((named) => ({
        level: "participant" in named ? ("site" as const) : ("study" as const),
        method: "POST" as const,
        url: "/control/participants/me/events?platform=clinro",
        options: json([
          {
            type: "seen",
            timestamp: new Date().toISOString(),
            info: { study_id: location.studyId },
            study_id: location.studyId,
            ...named,
          },
        ]),
      })),
    // The study alone needs the study's permission; with the participant, the site's too.
  },
  uploadFileCall: {
    probe: async ({ location, fixture }) => ({
      method: "POST",
      url: "/control/file/upload",
      options: await multipartUpload(
        {
          file_name: "photo.png",
          platform: "clinro",
          module_name: "clinro",
          participant_id: String(fixture.participant.get(location.siteId)),
        },
        fixture.png,
      ),
    }),
  },
  listVisitsCall: {
    mayAct: notWitness,
    probe: ({ location }) => ({
      method: "GET",
      url: `/control/studies/${location.studyId}/sites/${location.siteId}/clinro_visits`,
    }),
  },
  scheduleVisitCall: {
    mayAct: ({ role, location }) => studyRole(role, location.studyId) === ROLE_CODE.clinicalCoordinator,
    probe: ({ location, fixture }) => ({
      method: "POST",
      url: `/control/studies/${location.studyId}/sites/${location.siteId}/clinro_visits`,
      options: json({
        participant_id: fixture.participant.get(location.siteId),
        visit_time: new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString(),
        visit_duration: 30,
      }),
    }),
    // Only SCZ-214 has virtual visits: elsewhere a permitted coordinator is told so (409).
    success: ({ location }) => (location.studyId === 102 ? [201] : [409]),
  },
  validateRoomCall: {
    locations: (fixture) => LOCATIONS.filter((location) => location.siteId === fixture.room.siteId),
    mayAct: notWitness,
    probe: ({ fixture }) => ({
      method: "GET",
      url: `/control/studies/${fixture.room.studyId}/room_name/${fixture.room.roomName}/validate_room`,
    }),
  },
  renewTokenCall: {
    locations: (fixture) => LOCATIONS.filter((location) => location.siteId === fixture.room.siteId),
    mayAct: notWitness,
    probe: ({ fixture }) => ({
      method: "POST",
      url: `/control/studies/${fixture.room.studyId}/room_name/${fixture.room.roomName}/renew_token`,
    }),
  },
  postAnnouncementCall: {
    mayAct: ({ role, location }) =>
      studyRole(role, location.studyId) === ROLE_CODE.clinicalCoordinator ||
      accountOf(role).role === "administrator",
    probe: ({ location }) => ({
      method: "POST",
      url: "/control/announcements",
      options: json({
        study_id: location.studyId,
        site_id: location.siteId,
        title: "Matrix",
        content: "<p>Access matrix</p>",
      }),
    }),
    success: () => [201],
  },
  editUserCall: {
    // Another user (staff1; staff2 for staff1): only a user with the 'wu' scope may.
    mayAct: ({ role }) => (accountOf(role).scope ?? []).includes("wu"),
    probe: ({ role, fixture }) => {
      const target = role === "staff1" ? "staff2" : "staff1";
      return {
        method: "PATCH",
        url: `/control/users/${fixture.userId.get(target)}`,
        options: { body: { nickname: accountOf(target).name } },
      };
    },
  },
  listUsersCall: {
    mayAct: ({ role }) => accountOf(role).role === "administrator",
    probe: () => ({ method: "GET", url: "/control/users" }),
  },
  // Staff management (tests/api/staff.test.ts): administrators only, whoever the target is.
  listAssignableStudiesCall: {
    mayAct: ({ role }) => accountOf(role).role === "administrator",
    probe: () => ({ method: "GET", url: "/control/users/study-sites" }),
  },
  inviteStaffCall: {
    mayAct: ({ role }) => accountOf(role).role === "administrator",
    probe: () => ({
      method: "POST",
      url: "/control/users/invitations",
      options: {
        body: {
          email: `matrix-${randomUUID()}@site.example`,
          name: "Matrix Invitee",
          studies: [{ study_id: 101, role: ROLE_CODE.clinicalStaff1, site_ids: [1011] }],
        },
      },
    }),
    success: () => [201],
  },
  importStaffCall: {
    mayAct: ({ role }) => accountOf(role).role === "administrator",
    probe: () => ({
      method: "POST",
      url: "/control/users/invitations/import",
      options: {
        body: {
          csv: `email,name,study_id,role,site_ids\nmatrix-${randomUUID()}@site.example,M,101,11,1011\n`,
          dry_run: true,
        },
      },
    }),
  },
  getStaffAccessCall: {
    mayAct: ({ role }) => accountOf(role).role === "administrator",
    probe: ({ fixture }) => ({ method: "GET", url: `/control/users/${fixture.pendingUserId}/access` }),
  },
  setStaffAccessCall: {
    // The access the pending user already has: granted, it changes nothing.
    mayAct: ({ role }) => accountOf(role).role === "administrator",
    probe: ({ fixture }) => ({
      method: "PUT",
      url: `/control/users/${fixture.pendingUserId}/access`,
      options: {
        body: {
          management_role: "researcher",
          studies: [{ study_id: 101, role: ROLE_CODE.clinicalStaff1, site_ids: [1011, 1012] }],
        },
      },
    }),
  },
  resendInvitationCall: {
    mayAct: ({ role }) => accountOf(role).role === "administrator",
    probe: ({ fixture }) => ({ method: "POST", url: `/control/users/${fixture.pendingUserId}/invitation` }),
  },
  deactivateUserCall: {
    mayAct: ({ role }) => accountOf(role).role === "administrator",
    probe: ({ fixture }) => ({ method: "POST", url: `/control/users/${fixture.pendingUserId}/deactivate` }),
  },
  reactivateUserCall: {
    mayAct: ({ role }) => accountOf(role).role === "administrator",
    probe: ({ fixture }) => ({ method: "POST", url: `/control/users/${fixture.pendingUserId}/reactivate` }),
  },
  enrolParticipantCall: {
    mayAct: mayEnrol,
    probe: ({ role, location }) => ({
      method: "POST",
      url: `/control/studies/${location.studyId}/sites/${location.siteId}/participants`,
      options: json({ ...matrixPerson(role, location), client_id: randomUUID() }),
    }),
    success: () => [201],
  },
  editParticipantCall: {
    // Keeps an email address: the consent email row needs one (it runs before these rows).
    mayAct: mayEnrol,
    probe: ({ role, location, fixture }) => ({
      method: "PATCH",
      url: `/control/studies/${location.studyId}/sites/${location.siteId}/participants/${fixture.participant.get(location.siteId)}`,
      options: { body: matrixPerson(role, location) },
    }),
  },
  importParticipantsCall: {
    mayAct: mayEnrol,
    probe: ({ role, location }) => {
      const person = matrixPerson(role, location);
      return {
        method: "POST",
        url: `/control/studies/${location.studyId}/sites/${location.siteId}/participants/import`,
        options: {
          body: {
            csv: `subject_id,first_name,last_name,date_of_birth,gender,email\n${person.subject_id},Matrix,Import,1980-01-01,,\n`,
            dry_run: true,
          },
        },
      };
    },
  },
  // The study export (tests/api/export-scope.test.ts): administrators, and those given the
  // export right in the study, of the sites they hold; probed with each site as its filter.
  exportStudyCall: {
    mayAct: ({ role, location }) =>
      managementRoleAllows(accountOf(role).role, "exports") ||
      (accountOf(role).exports ?? []).includes(location.studyId) ||
      (role === EXPORT_GIVEN.role && location.studyId === EXPORT_GIVEN.studyId),
    probe: ({ location }) => ({
      method: "GET",
      url: `/control/studies/${location.studyId}/export?format=csv&site_id=${location.siteId}`,
    }),
  },
};

let consentDefinition: SurveyDefinition | undefined;
/** DEMO_PASSWORD encrypted to the signing key, as the signature dialog sends it. */
let signingProof: { kid: string; password_ciphertext: string } | undefined;

async function consentPost({ location, fixture }: Cell, path: "clinro" | "witness"): Promise<Probe> {
  const consent = fixture.consent.get(location.studyId)!;
  const first = consentDefinition ? consentDefinition.questions[consentDefinition.order[0]!] : undefined;
  const records = first ? [makeRecord(first, [], new Date())] : [];
  return {
    method: "POST",
    url: `/control/v2/${path}/participant/${fixture.participant.get(location.siteId)}/consent`,
    options: json({
      consent_id: consent.id,
      consent_version: consent.version,
      records,
      completion: new Date().toISOString(),
    }),
  };
}

const definitions = new Map<number, SurveyDefinition>();

async function submissionPost({ role, location, fixture }: Cell): Promise<Probe> {
  const instrument = fixture.instrument.get(location.studyId)!;
  const definition = definitions.get(location.studyId)!;
  const payload = payloadFor(
    definition,
    {},
    {
      user: { id: fixture.userId.get(role)!, username: `${role}@demo.test` },
      instrumentId: instrument.id,
      instanceId: randomUUID(),
    },
  );
  return {
    method: "POST",
    url: `/control/clinro/participant/${fixture.participant.get(location.siteId)}/instruments/${instrument.id}/submission`,
    options: json([payload]),
  };
}

const calls = await loadCallDeclarations();

/** A refusal that leaks nothing: a JSON error body (message, code, the issues) and no more. */
function isBareRefusal(response: LightMyRequestResponse) {
  if (!String(response.headers["content-type"] ?? "").startsWith("application/json")) return false;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return false;
  }
  return (
    errorBody.safeParse(body).success &&
    Object.keys(body as object).every((key) => ["message", "code", "issues"].includes(key))
  );
}

describeOnEachDatabase("the access matrix: roles × studies × sites × calls", (api) => {
  let fixture: Fixture | undefined;

  beforeAll(async () => {
    const db = api.db;
    const userId = new Map<Role, number>();
    for (const role of ROLES) {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.username, `${role}@demo.test`));
      userId.set(role, row!.id);
    }
    const [pending] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.username, DEMO_PENDING_ACCOUNT.username));
    await db
      .delete(sitePermissions)
      .where(
        and(
          eq(sitePermissions.userId, userId.get(REMOVED.role)!),
          eq(sitePermissions.siteId, REMOVED.siteId),
        ),
      );
    await db.insert(participants).values({
      studyId: 101,
      siteId: REMOVED.siteId,
      fname: LAKESIDE_MARKER,
      lname: LAKESIDE_MARKER,
      subjectId: LAKESIDE_MARKER,
      email: "lakeside.only@example.test",
    });
    await db
      .update(studyPermissions)
      .set({ scope: sql`array_append(${studyPermissions.scope}, ${STUDY_RIGHT.export})` })
      .where(
        and(
          eq(studyPermissions.userId, userId.get(EXPORT_GIVEN.role)!),
          eq(studyPermissions.studyId, EXPORT_GIVEN.studyId),
        ),
      );

    // MDD-301's consent version offered to participants with an email address at both its sites.
    const offers = (await db.execute(sql`
      select cp.consent_id as id, cp.version as version
      from consent_participants cp
      join participants p on p.id = cp.participant_id
      join consents c on c.id = cp.consent_id and c.study_id = 101
      join consent_versions v on v.consent_id = cp.consent_id and v.version = cp.version
      where p.email is not null and cp.status not in ('complete', 'declined')
      group by cp.consent_id, cp.version
      having count(distinct p.site_id) = 2
      order by cp.consent_id, cp.version
      limit 1`)) as unknown as
      { id: number; version: number }[] | { rows: { id: number; version: number }[] };
    const mddConsent = (Array.isArray(offers) ? offers : offers.rows)[0];
    const [gadConsent] = await db
      .insert(consents)
      .values({ studyId: 103, title: "GAD consent", type: "CONSENT", version: 1, dateDeployed: new Date() })
      .returning({ id: consents.id });
    const consent = new Map([
      [101, { id: mddConsent!.id, version: mddConsent!.version }],
      [103, { id: gadConsent!.id, version: 1 }],
    ]);

    // Per site: a participant with an email address; at MDD-301's sites, one offered its consent.
    const participant = new Map<number, number>();
    for (const { studyId, siteId } of LOCATIONS) {
      const offered =
        studyId === 101
          ? await db
              .select({ id: participants.id })
              .from(participants)
              .innerJoin(consentParticipants, eq(consentParticipants.participantId, participants.id))
              .where(
                and(
                  eq(participants.siteId, siteId),
                  isNotNull(participants.email),
                  eq(consentParticipants.consentId, mddConsent!.id),
                  eq(consentParticipants.version, mddConsent!.version),
                  sql`${consentParticipants.status} not in ('complete', 'declined')`,
                ),
              )
              .orderBy(asc(participants.id))
              .limit(1)
          : await db
              .select({ id: participants.id })
              .from(participants)
              .where(and(eq(participants.siteId, siteId), isNotNull(participants.email)))
              .orderBy(asc(participants.id))
              .limit(1);
      participant.set(siteId, offered[0]!.id);
    }

    const instrument = new Map<number, { id: number; slug: string; permissions: string[] }>();
    for (const study of DEMO_STUDIES) {
      const [row] = await db
        .selectDistinct({ id: instruments.id, slug: instruments.slug, permissions: instruments.permissions })
        .from(instruments)
        .innerJoin(instrumentDefinitions, eq(instrumentDefinitions.instrumentId, instruments.id))
        .where(
          and(eq(instruments.studyId, study.id), eq(instruments.instrumentType, INSTRUMENT_TYPE.clinician)),
        )
        .orderBy(asc(instruments.id))
        .limit(1);
      instrument.set(study.id, row!);
    }

    const [room] = await db
      .select({ studyId: visits.studyId, siteId: visits.siteId, roomName: visits.roomName })
      .from(visits)
      .where(and(eq(visits.isAdhoc, true), isNotNull(visits.token)))
      .limit(1);

    const tokens = new Map<Role, string>();
    for (const role of ROLES) tokens.set(role, await api.signIn(`${role}@demo.test`));

    // Definitions for the submission bodies and the consent session, read as the app reads them.
    const coordinator = tokens.get("coordinator")!;
    for (const study of DEMO_STUDIES) {
      const { id, slug } = instrument.get(study.id)!;
      const answer = await api.request("GET", `/control/studies/${study.id}/instruments/${id}/${slug}`, {
        token: coordinator,
      });
      definitions.set(study.id, parseDefinitionOrThrow(definitionJsonOf(answer)));
    }
    const consentAnswer = await api.request(
      "GET",
      `/control/v2/clinro/consent?consent_id=${mddConsent!.id}&version=${mddConsent!.version}&ptp_id=${participant.get(1011)}`,
      { token: coordinator },
    );
    consentDefinition = (consentAnswer.json() as { definition: SurveyDefinition }).definition;
    const key = signingKeyResponse.parse(
      (await api.request("GET", "/control/v2/signing-key", { token: coordinator })).json(),
    );
    const ciphertext = publicEncrypt(
      {
        key: createPublicKey({ key: key.jwk, format: "jwk" }),
        padding: constants.RSA_PKCS1_OAEP_PADDING,
        oaepHash: "sha256",
      },
      Buffer.from(DEMO_PASSWORD, "utf8"),
    );
    signingProof = { kid: key.kid, password_ciphertext: ciphertext.toString("base64") };

    fixture = {
      participant,
      instrument,
      consent,
      room: room!,
      userId,
      pendingUserId: pending!.id,
      tokens,
      png: Buffer.from(await testImage("png", 40, 30)),
    };
  });

  it("probes every declared call whose scope is a study, site, participant or the administration", () => {
    const unprobed = calls
      .filter(({ call }) => LEVEL_OF_SCOPE[call.scope] !== undefined)
      .map(({ name }) => name)
      .filter((name) => !(name in SPECS));
    expect(unprobed, "give each new call a row in tests/api/access-matrix.test.ts").toEqual([]);
    const probed = new Set(
      calls.filter(({ call }) => LEVEL_OF_SCOPE[call.scope] !== undefined).map(({ name }) => name),
    );
    const stale = Object.keys(SPECS).filter((name) => !probed.has(name));
    expect(stale, "rows for calls no longer declared, or declared public or own").toEqual([]);
  });

  it("declares public exactly the calls answered without a token, and no own or public call takes an id", () => {
    const mismatched = calls
      .filter(({ call }) => (call.scope === "public") !== (call.public === true))
      .map(({ name }) => name);
    expect(mismatched).toEqual([]);
    // An id a call takes is someone's: such a call is of a study, site, participant or the administration.
    const isId = (field: string) => /(^id$|Id$|_id$|_ids$)/.test(field);
    const takingIds = calls
      .filter(({ call }) => call.scope === "own" || call.scope === "public")
      .filter(({ call }) =>
        [call.params, call.query].some((shape) => Object.keys(shape?._zod.def.shape ?? {}).some(isId)),
      )
      .map(({ name }) => name);
    expect(takingIds).toEqual([]);
  });

  for (const [name, spec] of Object.entries(SPECS)) {
    it(`${name}: each role × study × site answers as the policy says`, async () => {
      const ready = fixture!;
      const call = calls.find((entry) => entry.name === name)?.call;
      expect(call, `${name} is declared`).toBeDefined();
      const callLevel = LEVEL_OF_SCOPE[call!.scope]!;
      const locations = callLevel === "none" ? [LOCATIONS[0]!] : (spec.locations?.(ready) ?? LOCATIONS);
      const wrong: string[] = [];
      let permittedCells = 0;
      let refusedCells = 0;
      for (const role of ROLES) {
        for (const location of locations) {
          const cell: Cell = { role, location, fixture: ready };
          if (spec.skip?.(cell)) continue;
          const probed = await spec.probe(cell);
          for (const probe of Array.isArray(probed) ? probed : [probed]) {
            const level = probe.level ?? callLevel;
            const held =
              level === "none" ||
              (level === "study"
                ? studyRole(role, location.studyId) !== undefined
                : holdsSite(role, location));
            const permitted = held && (spec.mayAct?.(cell) ?? true);
            const expected = permitted ? (spec.success?.(cell) ?? [200]) : [403, 404];
            if (permitted) permittedCells++;
            else refusedCells++;
            const response: LightMyRequestResponse = await api.request(probe.method, probe.url, {
              ...probe.options,
              token: ready.tokens.get(role)!,
            });
            const where = `${role} at study ${location.studyId} site ${location.siteId}: ${probe.method} ${probe.url} ${JSON.stringify(probe.options?.body ?? "").slice(0, 120)}`;
            if (!expected.includes(response.statusCode)) {
              wrong.push(
                `${where} answered ${response.statusCode}, policy ${expected.join(" or ")} (${response.body.slice(0, 160)})`,
              );
            } else if (!permitted && !isBareRefusal(response)) {
              wrong.push(`${where} refused with more than an error: ${response.body.slice(0, 160)}`);
            } else if (role === REMOVED.role && response.body.includes(LAKESIDE_MARKER)) {
              wrong.push(`${where} answered ${response.statusCode} with a participant of a site not held`);
            }
          }
        }
      }
      expect(wrong).toEqual([]);
      // Every row has both kinds of cell: the matrix tests a refusal and a grant of each call.
      expect(permittedCells, `${name}: no permitted cell`).toBeGreaterThan(0);
      expect(refusedCells, `${name}: no refused cell`).toBeGreaterThan(0);
    });
  }
});
