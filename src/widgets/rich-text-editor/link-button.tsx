/**
 * The editor's Link toggle: pressed while the cursor is in a link, and then it removes the link;
 * otherwise it opens a small dialog asking for the address, which links the selected text (or,
 * with nothing selected, inserts the address as a link).
 */
import { Trans, useLingui } from "@lingui/react/macro";
import type { Editor } from "@tiptap/react";
import { useRef, useState, type FormEvent } from "react";
import {
  Button,
  Dialog,
  FieldError,
  Heading,
  Input,
  Label,
  Popover,
  TextField,
  ToggleButton,
} from "react-aria-components";
import { EditorIcon } from "./editor-icons.tsx";
import { linkAddress } from "./link-address.ts";

const PLACEMENT = "bottom start";
const ADDRESS_PLACEHOLDER = "https://";

export function LinkButton({ editor, isActive }: { editor: Editor; isActive: boolean }) {
  const { t } = useLingui();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const [isOpen, setOpen] = useState(false);
  const [address, setAddress] = useState("");
  const [invalid, setInvalid] = useState(false);

  const open = () => {
    setAddress("");
    setInvalid(false);
    setOpen(true);
  };

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const href = linkAddress(address);
    if (!href) {
      setInvalid(true);
      return;
    }
    setOpen(false);
    const chain = editor.chain().focus();
    if (editor.state.selection.empty) {
      chain.insertContent({ type: "text", text: href, marks: [{ type: "link", attrs: { href } }] }).run();
    } else {
      chain.extendMarkRange("link").setLink({ href }).run();
    }
  };

  return (
    <>
      <ToggleButton
        ref={triggerRef}
        className="rich-text-editor__button"
        aria-label={t({ id: "widget_editor_link", message: "Link" })}
        isSelected={isActive}
        onPress={() => {
          if (isActive) editor.chain().extendMarkRange("link").unsetLink().run();
          else open();
        }}
      >
        <EditorIcon name="link" />
      </ToggleButton>
      <Popover
        className="rac-popover"
        triggerRef={triggerRef}
        isOpen={isOpen}
        onOpenChange={setOpen}
        placement={PLACEMENT}
      >
        <Dialog className="rac-dialog rich-text-editor__link-dialog">
          <Heading slot="title" className="rac-dialog__title">
            <Trans id="widget_editor_link_title">Add a link</Trans>
          </Heading>
          <form className="rich-text-editor__link-form" onSubmit={apply} noValidate>
            <TextField
              className="rac-field"
              value={address}
              onChange={(next) => {
                setAddress(next);
                setInvalid(false);
              }}
              isInvalid={invalid}
              // The dialog exists to type this one address: start there.
              // eslint-disable-next-line jsx-a11y/no-autofocus
              autoFocus
            >
              <Label className="rac-field__label">
                <Trans id="widget_editor_link_address">Web address or email link</Trans>
              </Label>
              <Input className="rac-input" type="url" inputMode="url" placeholder={ADDRESS_PLACEHOLDER} />
              <FieldError className="field-error">
                <Trans id="widget_editor_link_invalid">
                  Enter a web address (https://…) or an email link (mailto:…).
                </Trans>
              </FieldError>
            </TextField>
            <div className="rich-text-editor__link-actions">
              <Button className="button button--secondary rac-focus" onPress={() => setOpen(false)}>
                <Trans id="widget_editor_link_cancel">Cancel</Trans>
              </Button>
              <Button type="submit" className="button button--primary rac-focus">
                <Trans id="widget_editor_link_apply">Add link</Trans>
              </Button>
            </div>
          </form>
        </Dialog>
      </Popover>
    </>
  );
}
