/**
 * The early start: built on its own as a small classic script and inlined at the top of
 * index.html's head (see earlyDefinitionScript in vite.config.ts), so it runs before the browser
 * has asked for any of the app's files. It sets zod's configuration before any module runs, and
 * on an instrument route, with a live token, it starts the definition call at once and asks for
 * the route's own files beside the app's. The app's route loader takes the pending response
 * (early-definition.ts). It imports only the URL builder and the session store, never the app:
 * every byte of it is in every page's HTML.
 */
import "../contracts/zod-jitless.ts";
import { getStoredUser, isTokenExpired } from "../auth/session-store.ts";
import { preloadRouteFiles, startEarlyDefinition } from "./early-definition.ts";
import { definitionUrl, instrumentRouteAddress } from "./survey-definition-url.ts";

const address = instrumentRouteAddress(location.pathname, location.search);
const user = address ? getStoredUser() : null;
// No session, an ended one or a temporary password: the app signs out or redirects instead.
if (address && user && !isTokenExpired(user) && !user.is_temporary_password) {
  startEarlyDefinition(definitionUrl(address), user.token);
  preloadRouteFiles(__INSTRUMENT_ROUTE_FILES__);
}
