import { msg } from "@lingui/core/macro";

/** Spec 01 section 4: an activation link of an account whose password is already set. */
export const alreadySetMessage = msg({ id: "pw_already_set", message: "You have already set your password" });
