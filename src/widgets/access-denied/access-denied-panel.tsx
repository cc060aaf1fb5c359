import type { ReactNode } from "react";
import { LockIcon } from "./lock-icon.tsx";

type Props = {
  /** The spec's message: no permission for a form, or no access to the participant. */
  message: string;
  /** Return to the participant, back to studies. */
  actions: ReactNode;
  /** The "log in with another account" form. */
  children: ReactNode;
  /** The panel's heading level: 1 when it is the page, 2 inside a dialog (whose title is the message). */
  headingLevel?: 1 | 2 | null;
};

/** The access-denied panel of spec 01 section 2: a lock icon, the message, and the ways on. */
export function AccessDeniedPanel({ message, actions, children, headingLevel = 1 }: Props) {
  const Heading = headingLevel === 1 ? "h1" : headingLevel === 2 ? "h2" : "p";
  return (
    <section className="access-denied">
      <div className="access-denied__icon">
        <LockIcon size={36} />
      </div>
      <Heading className="access-denied__message" tabIndex={headingLevel === 1 ? -1 : undefined}>
        {message}
      </Heading>
      <div className="access-denied__actions">{actions}</div>
      {children}
    </section>
  );
}
