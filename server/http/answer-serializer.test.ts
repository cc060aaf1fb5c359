/**
 * Every declared JSON answer is checked against its schema on the way out: what matches is sent
 * without the fields the schema does not name, what breaks the contract becomes a 500. Both ways
 * of checking (the compiled JSON Schema check, zod's parse where a schema needs it) hold to that,
 * and the cross-check the API tests run under refuses an answer on which they disagree.
 */
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import type * as zc from "zod/v4/core";
import {
  consentParticipantsResponse,
  type ConsentParticipantsResponse,
} from "../../core/contracts/consent-schemas.ts";
import {
  participantSearchResponse,
  SEARCH_RESULT_LIMIT,
  type ParticipantSearchResult,
} from "../../core/contracts/participant.ts";
import { answerSerializerCompiler, type AnswerSerializerOptions } from "./answer-serializer.ts";
import { compiledAnswer } from "./compiled-answer.ts";

const row = (id: number): ParticipantSearchResult => ({
  id,
  fname: "Amelia",
  lname: "Anderson",
  site_id: 1011,
  study_id: 101,
  subject_id: `S-${id}`,
  date_of_birth: null,
});

async function answering(
  body: unknown,
  schema: zc.$ZodType = participantSearchResponse,
  options: AnswerSerializerOptions = {},
) {
  const app = Fastify();
  app.setSerializerCompiler(answerSerializerCompiler(options));
  app.get("/answer", { schema: { response: { 200: schema } } }, async () => body);
  try {
    return await app.inject({ url: "/answer" });
  } finally {
    await app.close();
  }
}

const consentAnswer: ConsentParticipantsResponse = {
  consent_id: 3,
  title: "Main study consent",
  version: 2,
  date_deployed: "2026-01-05T09:00:00.000Z",
  groups: [
    {
      status: "awaiting_participant",
      participants: [
        {
          consent_id: 3,
          consent_participant_status: "awaiting_participant",
          consent_version: 2,
          email: null,
          id: 17,
          firstname: "Zoë",
          lastname: 'Ødegård "the elder"',
          subject_id: "S-017",
        },
      ],
    },
  ],
};

describe("the answer check", () => {
  it("compiles the answers JSON Schema can state, and leaves zod the ones that fill in defaults", () => {
    expect(compiledAnswer(participantSearchResponse)).not.toBeNull();
    expect(compiledAnswer(consentParticipantsResponse)).not.toBeNull();
    expect(compiledAnswer(z.object({ kind: z._default(z.string(), "plain") }))).toBeNull();
    expect(compiledAnswer(z.object({ at: z.date() }))).toBeNull();
  });

  for (const crossCheck of [false, true]) {
    describe(crossCheck ? "with the cross-check of the API tests" : "as the server runs", () => {
      it("sends an answer that matches its schema, without the fields the schema does not name", async () => {
        const response = await answering(
          { response: [{ ...row(1), password_hash: "never sent" }], debug: 1 },
          participantSearchResponse,
          { crossCheck },
        );
        expect(response.statusCode).toBe(200);
        expect(JSON.parse(response.body)).toEqual({ response: [row(1)] });

        const nested = structuredClone(consentAnswer);
        Object.assign(nested.groups[0]!.participants[0]!, { date_of_birth: "1950-01-01" });
        const consent = await answering(nested, consentParticipantsResponse, { crossCheck });
        expect(consent.statusCode).toBe(200);
        expect(JSON.parse(consent.body)).toEqual(consentAnswer);
      });

      it("answers 500 instead of an answer that breaks the contract", async () => {
        for (const body of [
          { response: [{ ...row(1), id: "1" }] },
          { response: [{ ...row(1), id: 1.5 }] }, // a check, not only a type
          { response: [{ ...row(1), lname: undefined }] },
          { response: Array.from({ length: SEARCH_RESULT_LIMIT + 1 }, (_, index) => row(index + 1)) },
        ]) {
          const response = await answering(body, participantSearchResponse, { crossCheck });
          expect(response.statusCode).toBe(500);
          expect(response.body).not.toContain("Anderson");
        }
        const wrongStatus = structuredClone(consentAnswer);
        Object.assign(wrongStatus.groups[0]!, { status: "signed" });
        expect((await answering(wrongStatus, consentParticipantsResponse, { crossCheck })).statusCode).toBe(
          500,
        );
        const badMoment = { ...consentAnswer, date_deployed: "last Tuesday" };
        expect((await answering(badMoment, consentParticipantsResponse, { crossCheck })).statusCode).toBe(
          500,
        );
      });

      it("writes a nullable moment, number or text as its value or null, and still refuses a broken one", async () => {
        const schema = z.object({
          at: z.nullable(z.iso.datetime()),
          count: z.nullable(z.int()),
          note: z.nullable(z.string()),
        });
        expect(compiledAnswer(schema)).not.toBeNull();
        const full = { at: "2026-11-28T23:16:11.851Z", count: 3, note: 'said "yes"' };
        const empty = { at: null, count: null, note: null };
        for (const body of [full, empty]) {
          const response = await answering(body, schema, { crossCheck });
          expect(response.statusCode).toBe(200);
          expect(response.body).toBe(JSON.stringify(body));
        }
        for (const body of [
          { ...full, at: "last Tuesday" },
          { ...full, count: 1.5 },
          { ...full, note: 7 },
        ]) {
          expect((await answering(body, schema, { crossCheck })).statusCode).toBe(500);
        }
      });

      it("fills in a schema's defaults, as the app's own parse would", async () => {
        const schema = z.object({ kind: z._default(z.string(), "plain") });
        const response = await answering({}, schema, { crossCheck });
        expect(JSON.parse(response.body)).toEqual({ kind: "plain" });
      });
    });
  }

  it("refuses, under the cross-check, an answer the compiled check passes and zod's parse does not", async () => {
    // A custom check has no JSON Schema: the compiled check cannot see it, zod's parse can.
    const schema = z.object({
      note: z.string().check((context) => {
        if (context.value.includes("secret"))
          context.issues.push({ code: "custom", message: "no", input: context.value });
      }),
    });
    expect((await answering({ note: "a secret" }, schema)).statusCode).toBe(200);
    expect((await answering({ note: "a secret" }, schema, { crossCheck: true })).statusCode).toBe(500);
    expect((await answering({ note: "plain" }, schema, { crossCheck: true })).statusCode).toBe(200);
  });
});
