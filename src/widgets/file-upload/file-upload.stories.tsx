import type { Story, StoryDefault } from "@ladle/react";
import { FileUpload } from "./file-upload.tsx";
import { DOCUMENT_AND_IMAGE_EXTENSIONS, SIGNATURE_IMAGE_EXTENSIONS } from "./file-types.ts";

export default { title: "Widgets / File upload" } satisfies StoryDefault;

export const Documents: Story = () => (
  <FileUpload label="Attach a document" accepted={DOCUMENT_AND_IMAGE_EXTENSIONS} onFile={() => undefined} />
);
export const SignatureImage: Story = () => (
  <FileUpload
    label="Upload a signature"
    accepted={SIGNATURE_IMAGE_EXTENSIONS}
    buttonText="Choose a picture"
    onFile={() => undefined}
  />
);
