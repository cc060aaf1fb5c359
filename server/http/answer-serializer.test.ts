/**
 * Every declared JSON answer is checked against its schema on the way out: what matches is sent
 * without the fields the schema does not name, what breaks the contract becomes a 500.
 */
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import {
  participantSearchResponse,
  SEARCH_RESULT_LIMIT,
  type ParticipantSearchResult,
} from "../../core/contracts/participant.ts";
import { answerSerializerCompiler } from "./answer-serializer.ts";

const row = (id: number): ParticipantSearchResult => ({
  id,
  fname: "Amelia",
  lname: "Anderson",
  site_id: 1011,
  study_id: 101,
  subject_id: `S-${id}`,
  date_of_birth: null,
});

async function answering(body: unknown) {
  const app = Fastify();
  app.setSerializerCompiler(answerSerializerCompiler);
  app.get("/search", { schema: { response: { 200: participantSearchResponse } } }, async () => body);
  try {
    return await app.inject({ url: "/search" });
  } finally {
    await app.close();
  }
}

describe("the answer check", () => {
  it("sends an answer that matches its schema, without the fields the schema does not name", async () => {
    const response = await answering({ response: [{ ...row(1), password_hash: "never sent" }], debug: 1 });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ response: [row(1)] });
  });

  it("answers 500 instead of an answer that breaks the contract", async () => {
    for (const body of [
      { response: [{ ...row(1), id: "1" }] },
      { response: [{ ...row(1), id: 1.5 }] }, // a check, not only a type
      { response: Array.from({ length: SEARCH_RESULT_LIMIT + 1 }, (_, index) => row(index + 1)) },
    ]) {
      const response = await answering(body);
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain("Anderson");
    }
  });
});
