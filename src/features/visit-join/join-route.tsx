import { getRouteApi } from "@tanstack/react-router";
import { JoinPage } from "./join-page.tsx";

const joinRoute = getRouteApi("/join/$secret");

export function JoinRoute() {
  const { secret } = joinRoute.useParams();
  // A new link is a new page: nothing of the previous room is kept.
  return <JoinPage key={secret} secret={secret} />;
}
