/**
 * A drawer (spec 02 sections 4 and 9): a modal panel from the side, open or closed; closing
 * plays a 150 ms animation before it leaves the page (React Aria's Modal waits for the CSS
 * exit animation), Escape and a click outside close it, focus is kept inside while open.
 */
import type { ReactNode } from "react";
import { Button, Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { Trans } from "@lingui/react/macro";
import "../widgets.css";
import "./drawer.css";

/** The drawer's closing animation (spec 02 section 9); drawer.css uses the same value. */
export const DRAWER_CLOSE_MS = 150;

export type DrawerProps = {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  title: ReactNode;
  children: ReactNode;
  side?: "start" | "end";
};

export function Drawer({ isOpen, onOpenChange, title, children, side = "end" }: DrawerProps) {
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable className="drawer-overlay">
      <Modal
        className={`drawer drawer--${side}`}
        style={{ ["--drawer-close-ms" as string]: `${DRAWER_CLOSE_MS}ms` }}
      >
        <Dialog className="drawer__dialog">
          {({ close }) => (
            <>
              <div className="drawer__header">
                <Heading slot="title" className="drawer__title">
                  {title}
                </Heading>
                <Button className="button button--secondary rac-focus" onPress={close}>
                  <Trans id="widget_drawer_close">Close</Trans>
                </Button>
              </div>
              <div className="drawer__body">{children}</div>
            </>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
