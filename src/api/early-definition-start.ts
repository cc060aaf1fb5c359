/**
 * The early definition download's script, loaded by index.html with `async` before the app and
 * built on its own as a classic script (see earlyDefinitionScript in vite.config.ts): on an
 * instrument route, with a live token, it starts the definition call at once. The app's route
 * loader takes the pending response (early-definition.ts). It imports only the URL builder and
 * the session store, never the app: every byte here delays nothing else, but it is on the page's
 * critical path.
 */
import "../contracts/zod-jitless.ts";
import { getStoredUser, isTokenExpired } from "../auth/session-store.ts";
import { startEarlyDefinition } from "./early-definition.ts";
import { definitionUrl, instrumentRouteAddress } from "./survey-definition-url.ts";

const address = instrumentRouteAddress(location.pathname, location.search);
const user = address ? getStoredUser() : null;
// No session, an ended one or a temporary password: the app signs out or redirects instead.
if (address && user && !isTokenExpired(user) && !user.is_temporary_password) {
  startEarlyDefinition(definitionUrl(address), user.token);
}
