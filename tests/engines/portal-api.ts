/**
 * What the server holds, asked from Node with a user's token: the engines' journeys check that a
 * write arrived exactly once without trusting the page that made it.
 */
import type { ConsentParticipantsResponse } from "../../core/contracts/consent-schemas.ts";
import { participantsOf } from "../../core/contracts/consent-schemas.ts";

export const DEMO_PASSWORD = "DemoPass1!";
export const COORDINATOR = "coordinator@demo.test";

export type PortalApi = {
  get<T>(path: string, headers?: Record<string, string>): Promise<T>;
};

export async function signInApi(baseUrl: string, username = COORDINATOR): Promise<PortalApi> {
  const login = await fetch(`${baseUrl}/control/clinro/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status}`);
  const { token } = (await login.json()) as { token: string };
  return {
    async get<T>(path: string, headers: Record<string, string> = {}) {
      const response = await fetch(`${baseUrl}${path}`, {
        headers: { authorization: `Bearer ${token}`, ...headers },
      });
      if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
      return (await response.json()) as T;
    },
  };
}

/** How many completions the server holds for one delivery of an instrument. */
export async function completionsOf(api: PortalApi, participantId: number, instanceId: number) {
  const history = await api.get<{ instruments: { completed: { instance_id: number }[] } }>(
    `/control/participants/${participantId}/instrument_history/clinro`,
  );
  return history.instruments.completed.filter((item) => item.instance_id === instanceId).length;
}

/** The participants of one consent at one site, with their statuses. */
export async function consentParticipants(api: PortalApi, title: string, studyId: number, siteId: number) {
  const list = await api.get<{
    consents: { study_id: number; consents: { consent_id: number; title: string }[] }[];
  }>(`/control/v2/clinro/me/consents?study_id=${studyId}&site_id=${siteId}`);
  const consent = list.consents
    .find((study) => study.study_id === studyId)
    ?.consents.find((item) => item.title === title);
  if (!consent) throw new Error(`no consent "${title}"`);
  const body = await api.get<ConsentParticipantsResponse>(
    `/control/v2/clinro/me/consents/${consent.consent_id}?site_id=${siteId}`,
  );
  return { consentId: consent.consent_id, participants: participantsOf(body) };
}

export async function consentStatus(
  api: PortalApi,
  participant: { consent_id: number; consent_version: number; id: number },
) {
  return api.get<{ status: string; signatures: { role: string; signature_type: string }[] }>(
    `/control/v2/clinro/consent?consent_id=${participant.consent_id}&version=${participant.consent_version}&ptp_id=${participant.id}`,
    { version: "010" },
  );
}
