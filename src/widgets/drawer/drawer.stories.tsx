import type { Story, StoryDefault } from "@ladle/react";
import { useState } from "react";
import { Button } from "../button/button.tsx";
import { Drawer } from "./drawer.tsx";

export default { title: "Widgets / Drawer" } satisfies StoryDefault;

function DrawerDemo({ initiallyOpen }: { initiallyOpen: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <>
      <Button onPress={() => setOpen(true)}>Open the menu</Button>
      <Drawer isOpen={open} onOpenChange={setOpen} title="Menu">
        <p>Studies, participants and visits.</p>
      </Drawer>
    </>
  );
}

export const Closed: Story = () => <DrawerDemo initiallyOpen={false} />;
export const Open: Story = () => <DrawerDemo initiallyOpen />;
