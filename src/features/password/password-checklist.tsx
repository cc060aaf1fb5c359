import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react";
import { useLingui as useLinguiMacro } from "@lingui/react/macro";
import {
  checkPasswordRules,
  passwordRules,
  type PasswordRuleCode,
} from "../../../core/contracts/password-policy.ts";

const ruleLabels: Record<PasswordRuleCode, MessageDescriptor> = {
  min_length: msg({ id: "pw_rule_min_length", message: "8 characters minimum" }),
  uppercase: msg({ id: "pw_rule_uppercase", message: "One uppercase letter" }),
  lowercase: msg({ id: "pw_rule_lowercase", message: "One lowercase letter" }),
  digit: msg({ id: "pw_rule_digit", message: "One number" }),
  special: msg({ id: "pw_rule_special", message: "One special character" }),
};

/** The five-rule live checklist; each rule says whether it holds, in words as well as colour. */
export function PasswordChecklist({ password, id }: { password: string; id: string }) {
  const { i18n } = useLingui();
  const { t } = useLinguiMacro();
  const results = checkPasswordRules(password);
  return (
    <ul
      className="checklist"
      id={id}
      aria-label={t({ id: "pw_rules_label", message: "Password requirements" })}
    >
      {passwordRules.map(({ code }) => (
        <li key={code} className={results[code] ? "checklist__item checklist__item--met" : "checklist__item"}>
          <span aria-hidden="true" className="checklist__icon">
            {results[code] ? "✓" : "○"}
          </span>
          {i18n._(ruleLabels[code])}
          <span className="visually-hidden">
            {" "}
            {results[code]
              ? t({ id: "pw_rule_met", message: "(met)" })
              : t({ id: "pw_rule_not_met", message: "(not met)" })}
          </span>
        </li>
      ))}
    </ul>
  );
}
