/** Demo accounts of the seed (server/seed/demo.ts). */
export const DEMO_PASSWORD = "DemoPass1!";
export const COORDINATOR = "coordinator@demo.test";
export const STAFF3 = "staff3@demo.test";
export const TEMPORARY_PASSWORD_USER = "newuser@demo.test";
