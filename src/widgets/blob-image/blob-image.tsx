import { useCallback } from "react";

/**
 * An image of a Blob held on the device (a photo, a drawn signature): its object URL lives as
 * long as the image element, and is revoked when the element or the Blob goes.
 */
export function BlobImage({ blob, alt, className }: { blob: Blob; alt: string; className: string }) {
  const attach = useCallback(
    (image: HTMLImageElement | null) => {
      if (!image) return;
      const url = URL.createObjectURL(blob);
      image.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [blob],
  );
  return <img ref={attach} alt={alt} className={className} />;
}
