/**
 * One labelled text input, the way every form of the portal shows one: the label above, a hint
 * under it when there is one, the input (described by the hint and the error), and the error
 * under the input. The input takes every attribute an <input> takes; its id is made unless given.
 */
import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from "react";

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: ReactNode;
  hint?: ReactNode;
  /** Said under the input, and announced (an alert) when it appears. */
  error?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

export function TextField({ label, hint, error, id, ref, ...input }: TextFieldProps) {
  const madeId = useId();
  const inputId = id ?? madeId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [input["aria-describedby"], hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <input
        {...input}
        ref={ref}
        id={inputId}
        aria-describedby={describedBy}
        aria-invalid={error ? true : input["aria-invalid"]}
      />
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
