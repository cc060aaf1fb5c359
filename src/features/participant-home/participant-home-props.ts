/** Which participant a participant home page shows: the route's params. */
export type ParticipantHomeProps = { studyId: number; siteId: number; participantId: number };
