/**
 * The scale data set's clinician instruments: five rating scales of 10 to 60
 * single-choice items, in the definition format of core/contracts/survey-definition.ts (as the
 * demo's ham-d-17.json is written), with a total score. Each study deploys all five; how often
 * each is administered (`weight`) makes a submission hold about 22 answers on average.
 */
export type ScaleInstrument = {
  slug: string;
  name: string;
  displayName: string;
  items: number;
  /** Out of 100: the share of the submissions that are of this instrument. */
  weight: number;
  scheme: "weekly" | "persistent";
  visibleDays: number;
};

export const SCALE_INSTRUMENTS: ScaleInstrument[] = [
  {
    slug: "madrs",
    name: "Montgomery-Asberg Depression Rating Scale",
    displayName: "MADRS",
    items: 10,
    weight: 30,
    scheme: "weekly",
    visibleDays: 7,
  },
  {
    slug: "ham-d-17",
    name: "Hamilton Depression Rating Scale (17 items)",
    displayName: "HAM-D 17",
    items: 17,
    weight: 35,
    scheme: "weekly",
    visibleDays: 7,
  },
  {
    slug: "anxiety-global-24",
    name: "Anxiety and Global Functioning (24 items)",
    displayName: "Anxiety and Global Functioning",
    items: 24,
    weight: 15,
    scheme: "weekly",
    visibleDays: 7,
  },
  {
    slug: "clinical-interview-36",
    name: "Structured Clinical Interview (36 items)",
    displayName: "Structured Clinical Interview",
    items: 36,
    weight: 12,
    scheme: "persistent",
    visibleDays: 1,
  },
  {
    slug: "comprehensive-60",
    name: "Comprehensive Psychopathology Assessment (60 items)",
    displayName: "Comprehensive Assessment",
    items: 60,
    weight: 8,
    scheme: "persistent",
    visibleDays: 1,
  },
];

const DOMAINS = [
  "Depressed mood",
  "Feelings of guilt",
  "Suicidal thoughts",
  "Insomnia: early in the night",
  "Insomnia: middle of the night",
  "Insomnia: early hours of the morning",
  "Work and activities",
  "Psychomotor retardation",
  "Agitation",
  "Anxiety: psychic",
  "Anxiety: somatic",
  "Somatic symptoms: gastro-intestinal",
  "Somatic symptoms: general",
  "Genital symptoms",
  "Hypochondriasis",
  "Loss of weight",
  "Insight",
  "Apparent sadness",
  "Reported sadness",
  "Inner tension",
  "Reduced appetite",
  "Concentration difficulties",
  "Lassitude",
  "Inability to feel",
  "Pessimistic thoughts",
];

const ANCHORS = ["Absent", "Mild", "Moderate", "Marked", "Severe"];

export function itemId(index: number) {
  return `item_${String(index + 1).padStart(2, "0")}`;
}

export function itemLabel(index: number) {
  return `${index + 1}. ${DOMAINS[index % DOMAINS.length]}${index >= DOMAINS.length ? ` (${Math.floor(index / DOMAINS.length) + 1})` : ""}`;
}

export function anchorLabel(choice: number) {
  return ANCHORS[choice]!;
}

export function scaleDefinition(instrument: ScaleInstrument): Record<string, unknown> {
  const ids = Array.from({ length: instrument.items }, (_, index) => itemId(index));
  const questions: Record<string, unknown> = {
    introduction: {
      id: "introduction",
      type: "introduction",
      label: instrument.name,
      comments:
        "Rate the patient's condition over the past week. For each item, select the one anchor that best characterises the patient.",
      attributes: { required: false },
    },
  };
  ids.forEach((id, index) => {
    questions[id] = {
      id,
      name: id,
      type: "select_one",
      label: itemLabel(index),
      attributes: { required: true },
      choices: Object.fromEntries(
        ANCHORS.map((label, choice) => [`c${choice}`, { label, score_value: choice }]),
      ),
    };
  });
  return {
    id: instrument.slug,
    type: "CLINRO",
    title: instrument.name,
    version: 1,
    order: ["introduction", ...ids],
    questions,
    scores: [
      {
        id: "total",
        name: `${instrument.displayName} total`,
        description: `Sum of the ${instrument.items} items, 0 to ${instrument.items * 4}.`,
        formula: `sum(${ids.map((id) => `{${id}}`).join(", ")})`,
      },
    ],
  };
}
