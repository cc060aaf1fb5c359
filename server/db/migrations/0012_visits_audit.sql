-- Scheduled visits join the audit trail (0008_audit_triggers.sql). visit_room_peers and
-- visit_signal_spill do not: they are the signalling's transport state (a heartbeat every 15 s
-- per peer, WebRTC offers in flight), not records a person made, and auditing them would put
-- the audit chain's lock on every video call's signalling path.
SELECT clinro_attach_audit('visits');
