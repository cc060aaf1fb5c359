/**
 * The metadata half of an ODM 1.3.2 export: one MetaDataVersion per definition version (an
 * instrument version or a consent version), written from its layout (odm-form-layout.ts) in the
 * element order the schema demands: Protocol, StudyEventDef, FormDef, ItemGroupDef, ItemDef,
 * CodeList, ConditionDef, MethodDef.
 */
import {
  FORMULA_CONTEXT,
  QUESTION_ALIAS_CONTEXT,
  QUESTION_TYPE_ALIAS_CONTEXT,
  SHOW_IF_CONTEXT,
  SIBLING_GROUP_ALIAS_CONTEXT,
  measurementUnitOid,
} from "./odm-conventions.ts";
import type { OdmCodeList, OdmFormLayout, OdmItem } from "./odm-form-layout.ts";
import { element, textElement } from "./xml-text.ts";

export type MetaDataVersionHeading = {
  oid: string;
  /** e.g. "PHQ-9, version 2". */
  name: string;
  studyEventOid: string;
  studyEventName: string;
  formOid: string;
  formName: string;
};

/** A number as xs:decimal writes it (no exponent). */
export function decimalText(value: number): string {
  const written = String(value);
  if (!/e/i.test(written)) return written;
  return value.toFixed(20).replace(/\.?0+$/, "");
}

const translated = (name: string, text: string) => element(name, {}, textElement("TranslatedText", text));

export function writeBasicDefinitions(units: readonly string[]): string {
  if (units.length === 0) return "";
  return element(
    "BasicDefinitions",
    {},
    units.map((unit) =>
      element("MeasurementUnit", { OID: measurementUnitOid(unit), Name: unit }, translated("Symbol", unit)),
    ),
  );
}

export function writeMetaDataVersion(heading: MetaDataVersionHeading, layout: OdmFormLayout): string {
  const content = [
    element(
      "Protocol",
      {},
      element("StudyEventRef", { StudyEventOID: heading.studyEventOid, Mandatory: "No" }),
    ),
    element(
      "StudyEventDef",
      { OID: heading.studyEventOid, Name: heading.studyEventName, Repeating: "No", Type: "Unscheduled" },
      element("FormRef", { FormOID: heading.formOid, Mandatory: "No" }),
    ),
    element(
      "FormDef",
      { OID: heading.formOid, Name: heading.formName, Repeating: "Yes" },
      layout.groups.map((group, index) =>
        element("ItemGroupRef", { ItemGroupOID: group.oid, Mandatory: "No", OrderNumber: index + 1 }),
      ),
    ),
    ...layout.groups.map((group) =>
      element("ItemGroupDef", { OID: group.oid, Name: group.name, Repeating: "No" }, [
        group.description ? translated("Description", group.description) : "",
        ...group.items.map((item, index) =>
          element("ItemRef", {
            ItemOID: item.oid,
            OrderNumber: index + 1,
            Mandatory: item.mandatory ? "Yes" : "No",
            CollectionExceptionConditionOID: item.conditionOid,
            MethodOID: item.methodOid,
          }),
        ),
        group.siblingId === undefined
          ? ""
          : element("Alias", { Context: SIBLING_GROUP_ALIAS_CONTEXT, Name: group.siblingId }),
      ]),
    ),
    ...layout.groups.flatMap((group) => group.items.map(writeItemDef)),
    ...layout.codeLists.filter((codeList) => codeList.items.length > 0).map(writeCodeList),
    ...layout.conditions.map((condition) =>
      element("ConditionDef", { OID: condition.oid, Name: condition.questionId }, [
        translated("Description", condition.description),
        textElement("FormalExpression", condition.logicJson, { Context: SHOW_IF_CONTEXT }),
      ]),
    ),
    ...layout.methods.map((method) =>
      element("MethodDef", { OID: method.oid, Name: method.name, Type: "Computation" }, [
        translated("Description", method.description),
        textElement("FormalExpression", method.formula, { Context: FORMULA_CONTEXT }),
      ]),
    ),
  ];
  return element("MetaDataVersion", { OID: heading.oid, Name: heading.name }, content);
}

function writeItemDef(item: OdmItem): string {
  const rangeCheck = (comparator: "GE" | "LE", bound: number, words: string) =>
    element("RangeCheck", { Comparator: comparator, SoftHard: "Hard" }, [
      textElement("CheckValue", decimalText(bound)),
      translated("ErrorMessage", `${words} ${decimalText(bound)}`),
    ]);
  return element(
    "ItemDef",
    { OID: item.oid, Name: item.name, DataType: item.dataType, Length: item.length },
    [
      item.description ? translated("Description", item.description) : "",
      item.label.trim() === "" ? "" : translated("Question", item.label),
      item.unitOid ? element("MeasurementUnitRef", { MeasurementUnitOID: item.unitOid }) : "",
      item.min === undefined ? "" : rangeCheck("GE", item.min, "At least"),
      item.max === undefined ? "" : rangeCheck("LE", item.max, "At most"),
      item.codeListOid ? element("CodeListRef", { CodeListOID: item.codeListOid }) : "",
      item.partOf === undefined
        ? ""
        : element("Alias", { Context: QUESTION_ALIAS_CONTEXT, Name: item.partOf }),
      item.questionType
        ? element("Alias", { Context: QUESTION_TYPE_ALIAS_CONTEXT, Name: item.questionType })
        : "",
    ],
  );
}

function writeCodeList(codeList: OdmCodeList): string {
  return element(
    "CodeList",
    { OID: codeList.oid, Name: codeList.name, DataType: codeList.dataType },
    codeList.items.map((item, index) =>
      element(
        "CodeListItem",
        {
          CodedValue: item.codedValue,
          Rank: item.rank === undefined ? undefined : decimalText(item.rank),
          OrderNumber: index + 1,
        },
        translated("Decode", item.label),
      ),
    ),
  );
}
