/**
 * The early start: built on its own as a small classic script and inlined at the top of
 * index.html's head (see earlyStartScript in vite.config.ts), so it runs before the browser has
 * asked for any of the app's files. It sets zod's configuration before any module runs, and with
 * a live session it asks for the page's own files beside the app's (src/app/early-route-pages.ts)
 * and, on an instrument route, starts the definition call at once. The app's route loader takes
 * the pending response (early-definition.ts). It imports only the URL builder, the session store
 * and the page list, never the app: every byte of it is in every page's HTML.
 */
import "../../core/contracts/zod-jitless.ts";
import { earlyRouteFiles } from "./early-route-pages.ts";
import { getStoredUser, isTokenExpired } from "../auth/session-store.ts";
import { preloadRouteFiles, startEarlyDefinition } from "../api/early-definition.ts";
import { definitionUrl, instrumentRouteAddress } from "../api/survey-definition-url.ts";

const user = getStoredUser();
// No session, an ended one or a temporary password: the app signs out or redirects instead.
if (user && !isTokenExpired(user) && !user.is_temporary_password) {
  const address = instrumentRouteAddress(location.pathname, location.search);
  if (address) startEarlyDefinition(definitionUrl(address), user.token);
  preloadRouteFiles(earlyRouteFiles(location.pathname, __ROUTE_FILES__));
}
