/**
 * Deterministic, realistic demo participants: the same seed gives the same people every time.
 */
export const FIRST_NAMES_F = [
  "Amelia",
  "Sofia",
  "Grace",
  "Mariana",
  "Aisha",
  "Hannah",
  "Lucia",
  "Mei",
  "Olivia",
  "Priya",
  "Rosa",
  "Chloe",
  "Fatima",
  "Ingrid",
  "Nadia",
  "Yuki",
  "Elena",
  "Zoe",
  "Camila",
  "Leah",
];
export const FIRST_NAMES_M = [
  "James",
  "Mateo",
  "Noah",
  "Arjun",
  "Kwame",
  "Liam",
  "Diego",
  "Hiroshi",
  "Omar",
  "Lucas",
  "Samuel",
  "Tomasz",
  "Elijah",
  "Rafael",
  "Daniel",
  "Wei",
  "Aaron",
  "Jonas",
  "Malik",
  "Pedro",
];
export const FIRST_NAMES_O = ["Alex", "Jordan", "Taylor", "Sam", "Robin", "Quinn", "Avery", "Rowan"];
const LAST_NAMES = [
  "Anderson",
  "Bakshi",
  "Carvalho",
  "Dubois",
  "Eriksen",
  "Fernández",
  "García",
  "Haddad",
  "Ivanova",
  "Johnson",
  "Kowalski",
  "Lindqvist",
  "Martínez",
  "Nakamura",
  "O'Connor",
  "Patel",
  "Quintero",
  "Rossi",
  "Schmidt",
  "Thompson",
  "Usman",
  "Van der Berg",
  "Williams",
  "Xu",
  "Yilmaz",
  "Zhang",
  "Okafor",
  "Moreau",
  "Novak",
  "Reyes",
  "Sato",
  "Brennan",
];

/** mulberry32: a tiny seeded generator, good enough for demo data. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type DemoPerson = {
  fname: string;
  lname: string;
  gender: "m" | "f" | "o" | null;
  dateOfBirth: string;
  subjectId: string;
  email: string | null;
};

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

export function makeDemoPeople(count: number, subjectPrefix: string, seed: number): DemoPerson[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const roll = random();
    const gender = roll < 0.46 ? "f" : roll < 0.9 ? "m" : roll < 0.95 ? "o" : null;
    const fname =
      gender === "f"
        ? pick(random, FIRST_NAMES_F)
        : gender === "m"
          ? pick(random, FIRST_NAMES_M)
          : pick(random, FIRST_NAMES_O);
    const lname = pick(random, LAST_NAMES);
    const year = 1948 + Math.floor(random() * 55);
    const month = 1 + Math.floor(random() * 12);
    const day = 1 + Math.floor(random() * 28);
    const dateOfBirth = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
    // About one in eight participants has no subject id yet (screening).
    const subjectId = random() < 0.125 ? "" : `${subjectPrefix}-${String(1001 + index)}`;
    const email =
      random() < 0.7
        ? `${fname}.${lname}`
            .toLowerCase()
            .normalize("NFD")
            .replace(/[^a-z.]/g, "") + `${index}@example.org`
        : null;
    return { fname, lname, gender, dateOfBirth, subjectId, email };
  });
}
