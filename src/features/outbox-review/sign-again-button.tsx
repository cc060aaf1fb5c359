/**
 * "Sign again" on a consent the server refused for its staff signer's password (a password
 * changed since it was signed offline: src/outbox/consent-resign.ts). The signer types their
 * current password in the signature dialog; the consent, with the participant's signatures and
 * every answer as they were, is then sent again with the new proof.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { lazy, Suspense, useRef, useState } from "react";
import { useStoredUser } from "../../auth/use-stored-user.ts";
import type { SignAgainDialogProps } from "./sign-again-dialog.tsx";

const SignAgainDialog = lazy(() => import("./sign-again-dialog.tsx"));

export function SignAgainButton({
  item,
  label,
}: Pick<SignAgainDialogProps, "item" | "label"> & { item: { userId: number } }) {
  const { t } = useLingui();
  const user = useStoredUser();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  // Only the one who signed signs again.
  if (!user || user.id !== item.userId) return null;

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="button button--primary"
        aria-label={t({ id: "outbox_sign_again_named", message: `Sign again: ${label}` })}
        onClick={() => setOpen(true)}
      >
        <Trans id="outbox_sign_again">Sign again</Trans>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <SignAgainDialog
            item={item}
            label={label}
            signer={{ id: user.id, name: user.name || user.nickname || user.username }}
            onClose={() => {
              setOpen(false);
              buttonRef.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
