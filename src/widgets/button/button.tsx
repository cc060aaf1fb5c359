/**
 * The portal's button (spec 02 section 2): React Aria's Button (press events that behave alike
 * for mouse, touch and keyboard, focus ring only for keyboard) with the app's button classes.
 */
import type { ReactNode } from "react";
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from "react-aria-components";
import "../widgets.css";

export type ButtonVariant = "primary" | "secondary" | "danger";

export type ButtonProps = Omit<AriaButtonProps, "className" | "children"> & {
  variant?: ButtonVariant;
  block?: boolean;
  className?: string;
  children: ReactNode;
};

export function Button({ variant = "primary", block = false, className, ...props }: ButtonProps) {
  const classes = [
    "button",
    `button--${variant}`,
    "rac-focus",
    block ? "button--block" : "",
    className ?? "",
  ];
  return <AriaButton {...props} className={classes.filter(Boolean).join(" ")} />;
}
