import { useQuery } from "@tanstack/react-query";
import { studyQuery } from "../../api/studies-api.ts";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import { greetingOf } from "./greeting-of.ts";
import "./study-greeting.css";

/**
 * The study's greeting to its clinicians (spec 01, study config clinro.greeting), shown under the
 * heading of the study's first pages (participant search, consents). The text is the study's own,
 * written by its sponsor, so it is shown as written rather than translated.
 */
export function StudyGreeting({ studyId }: { studyId: number }) {
  const user = useStoredUser();
  // Only a study the user has permission in: the study call answers 403 (a logout) otherwise.
  const permitted = user?.permissions?.[String(studyId)] !== undefined;
  const study = useQuery({ ...studyQuery(studyId), enabled: permitted });
  const greeting = greetingOf(study.data?.config);
  if (!greeting) return null;
  return <p className="study-greeting">{greeting}</p>;
}
