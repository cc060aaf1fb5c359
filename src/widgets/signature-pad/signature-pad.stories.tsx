import type { Story, StoryDefault } from "@ladle/react";
import { useState } from "react";
import { SignaturePad } from "./signature-pad.tsx";

export default { title: "Widgets / Signature pad" } satisfies StoryDefault;

export const Empty: Story = () => {
  const [signed, setSigned] = useState(false);
  return (
    <div style={{ maxWidth: 480 }}>
      <SignaturePad
        label="Signature area: sign with a finger or a stylus"
        onChange={(png) => setSigned(png !== null)}
      />
      <p>{signed ? "Signed" : "Not signed yet"}</p>
    </div>
  );
};
