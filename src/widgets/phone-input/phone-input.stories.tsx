import type { Story, StoryDefault } from "@ladle/react";
import type { CountryCode } from "libphonenumber-js";
import { useState } from "react";
import { PhoneInput } from "./phone-input.tsx";

export default { title: "Widgets / Phone input" } satisfies StoryDefault;

function Demo({ number, error }: { number: string; error: string | null }) {
  const [country, setCountry] = useState<CountryCode>("US");
  const [value, setValue] = useState(number);
  return (
    <PhoneInput
      legend="Phone number"
      country={country}
      onCountryChange={setCountry}
      number={value}
      onNumberChange={setValue}
      error={error}
    />
  );
}

export const Empty: Story = () => <Demo number="" error={null} />;
export const Filled: Story = () => <Demo number="2015550123" error={null} />;
export const Invalid: Story = () => <Demo number="12" error="Please enter a valid phone number" />;
