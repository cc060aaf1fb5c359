// What the tests reach in the page: the app declares window.clinroOutbox (its support handle).
import type {} from "../../../src/app/outbox-support-handle.ts";
