import { expect, it } from "vitest";
import { errorBody } from "../../core/contracts/errors.ts";
import { studyResponse } from "../../core/contracts/study.ts";
import { describeOnEachDatabase } from "../support/api-harness.ts";

describeOnEachDatabase("GET /control/studies/:studyId", (api) => {
  let tokens: Promise<{ coordinator: string; staff3: string }> | undefined;
  const signedIn = () =>
    (tokens ??= (async () => ({
      coordinator: await api.signIn("coordinator@demo.test"),
      staff3: await api.signIn("staff3@demo.test"),
    }))());

  it("answers a permitted study with its config and flags", async () => {
    const { coordinator } = await signedIn();
    const response = await api.request("GET", "/control/studies/102", { token: coordinator });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    const study = studyResponse.parse(response.json());
    expect(study).toMatchObject({
      id: 102,
      name: "SCZ-214 Negative Symptoms",
      smsEnabled: true,
      newConsentEnabled: false,
      config: { virtual_visits: true, instrument_architecture_version: 2 },
    });
  });

  it("answers newConsentEnabled and the clinro greeting of the study that has them", async () => {
    const { coordinator } = await signedIn();
    const study = studyResponse.parse(
      (await api.request("GET", "/control/studies/101", { token: coordinator })).json(),
    );
    expect(study).toMatchObject({
      id: 101,
      smsEnabled: false,
      newConsentEnabled: true,
      config: { instrument_architecture_version: 1, clinro: { greeting: "Welcome to MDD-301" } },
    });
    expect(study.config.virtual_visits).not.toBe(true);
  });

  it("answers the study's sites the user may work in", async () => {
    const { coordinator } = await signedIn();
    const study = studyResponse.parse(
      (await api.request("GET", "/control/studies/102", { token: coordinator })).json(),
    );
    expect(study.sites).toEqual([
      { site_id: 1021, site_label: "Remote Visits Hub", tree_level: 4, is_virtual: true },
      { site_id: 1022, site_label: "Northern Region Office", tree_level: 3, is_virtual: false },
    ]);
  });

  it("answers a study to a user whose permissions include it (staff3 in 101 and 103)", async () => {
    const { staff3 } = await signedIn();
    for (const id of [101, 103]) {
      const response = await api.request("GET", `/control/studies/${id}`, { token: staff3 });
      expect(response.statusCode).toBe(200);
      expect(studyResponse.parse(response.json()).id).toBe(id);
    }
  });

  it("answers 403 to an existing study without permission, with the same body as a study that does not exist", async () => {
    const { staff3 } = await signedIn();
    const forbidden = await api.request("GET", "/control/studies/102", { token: staff3 });
    const missing = await api.request("GET", "/control/studies/999", { token: staff3 });
    expect(forbidden.statusCode).toBe(403);
    expect(missing.statusCode).toBe(403);
    expect(missing.body).toBe(forbidden.body);
    const body = errorBody.parse(forbidden.json());
    expect(body.message).toBeTruthy();
    expect(forbidden.body).not.toContain("SCZ-214");
  });

  it("answers a client error, never 500, to a study id beyond the database's integer range", async () => {
    const { staff3 } = await signedIn();
    const forbidden = await api.request("GET", "/control/studies/102", { token: staff3 });
    const huge = await api.request("GET", "/control/studies/99999999999", { token: staff3 });
    // Either answer is sound: 403 like any study that does not exist, or 400 for an id out of range.
    expect([400, 403]).toContain(huge.statusCode);
    if (huge.statusCode === 403) expect(huge.body).toBe(forbidden.body);
    else expect(errorBody.parse(huge.json()).message).toContain("studyId");
  });

  it.each(["abc", "0", "-1", "1.5", "101abc"])("answers 400 to the study id %j", async (id) => {
    const { coordinator } = await signedIn();
    const response = await api.request("GET", `/control/studies/${id}`, { token: coordinator });
    expect(response.statusCode).toBe(400);
    const body = errorBody.parse(response.json());
    expect(body.message).toContain("studyId");
  });

  it("answers 401 before anything else when there is no token", async () => {
    for (const id of ["101", "102", "999", "abc"]) {
      expect((await api.request("GET", `/control/studies/${id}`)).statusCode).toBe(401);
    }
  });
});
