/**
 * Whether the signed-in user may administer an instrument (spec 02 section 6): the user's role
 * in the study must be one of the instrument's permission codes. The codes come from the
 * participant's instrument list (the forms or the instances call, as the study's architecture
 * version picks), which the participant page already loaded and which is kept for offline use.
 * An instrument absent from the list is left to the server, which refuses a submission for it.
 */
import { useQuery } from "@tanstack/react-query";
import { formsQuery, instancesQuery } from "../../api/instruments-api.ts";
import { studyQuery } from "../../api/studies-api.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { isPermitted, listSourceFor } from "../participant-home/instrument-lists.ts";

export type InstrumentPermission =
  { kind: "loading" } | { kind: "permitted"; name: string | undefined } | { kind: "denied"; name: string };

export function useInstrumentPermission(studyId: number, participantId: number, instrumentId: number) {
  const user = useStoredUser();
  const role = user?.permissions?.[String(studyId)]?.role;
  const study = useQuery(studyQuery(studyId));
  const source = study.data ? listSourceFor(study.data.config?.instrument_architecture_version) : undefined;
  const forms = useQuery({ ...formsQuery(participantId, studyId), enabled: source === "forms" });
  const instances = useQuery({ ...instancesQuery(participantId, studyId), enabled: source === "instances" });

  if (study.isError || forms.isError || instances.isError)
    return { kind: "permitted", name: undefined } as const;
  if (source === undefined) return { kind: "loading" } as const;
  const entry =
    source === "forms"
      ? forms.data?.instruments.find((form) => form.instrument_id === instrumentId)
      : instances.data?.instruments.find((instrument) => instrument.instrument_id === instrumentId);
  const loaded = source === "forms" ? forms.data : instances.data;
  if (!loaded) return { kind: "loading" } as const;
  if (!entry) return { kind: "permitted", name: undefined } as const;
  return isPermitted(entry.permissions, role)
    ? ({ kind: "permitted", name: entry.name } as const)
    : ({ kind: "denied", name: entry.name } as const);
}
