import { describe, expect, it } from "vitest";
import {
  canSaveProfile,
  initialCountry,
  isPhoneValid,
  nationalPart,
  phoneToSend,
  smsAlertsOffered,
} from "./phone.ts";

describe("phoneToSend: the phone as sent (spec 01 section 5)", () => {
  it.each([
    { when: "SMS is off", isPhoneEnabled: false, phone: "617 555 0100", countryDialCode: "+1", sent: "" },
    {
      when: "SMS is on and the phone is empty",
      isPhoneEnabled: true,
      phone: "",
      countryDialCode: "+1",
      sent: "",
    },
    {
      when: "the dial code is missing",
      isPhoneEnabled: true,
      phone: "6175550100",
      countryDialCode: "+1",
      sent: "+16175550100",
    },
    {
      when: "it holds spaces, dashes and brackets",
      isPhoneEnabled: true,
      phone: "(617) 555-0100",
      countryDialCode: "+1",
      sent: "+16175550100",
    },
    {
      when: "it holds dots and letters",
      isPhoneEnabled: true,
      phone: "617.555.0100 ext",
      countryDialCode: "+1",
      sent: "+16175550100",
    },
    {
      when: "the dial code is already there",
      isPhoneEnabled: true,
      phone: "+1 617 555 0100",
      countryDialCode: "+1",
      sent: "+16175550100",
    },
    {
      when: "another country's dial code",
      isPhoneEnabled: true,
      phone: "20 7946 0958",
      countryDialCode: "+44",
      sent: "+442079460958",
    },
    {
      when: "it carries its own international prefix",
      isPhoneEnabled: true,
      phone: "+44 20 7946 0958",
      countryDialCode: "+1",
      sent: "+442079460958",
    },
    {
      when: "only punctuation was typed",
      isPhoneEnabled: true,
      phone: " - ",
      countryDialCode: "+1",
      sent: "",
    },
  ])("$when: sends '$sent'", ({ isPhoneEnabled, phone, countryDialCode, sent }) => {
    expect(phoneToSend({ isPhoneEnabled, phone, countryDialCode })).toBe(sent);
  });
});

describe("isPhoneValid", () => {
  it.each([
    ["a real US number", "617 555 0100", "US", true],
    ["a US number with its dial code", "+1 212 555 0100", "US", true],
    ["a UK mobile", "07911 123456", "GB", true],
    ["too short", "12345", "US", false],
    ["an impossible US area code", "555 555 5555", "US", false],
    ["letters", "abc", "US", false],
    ["empty", "   ", "US", false],
  ] as const)("%s: %s", (_case, phone, country, valid) => {
    expect(isPhoneValid(phone, country)).toBe(valid);
  });
});

describe("canSaveProfile", () => {
  it.each([
    ["a name and SMS off", { name: "Jane", isPhoneEnabled: false, phone: "" }, false, true],
    ["an empty name", { name: "  ", isPhoneEnabled: false, phone: "" }, false, false],
    ["SMS on with an empty phone", { name: "Jane", isPhoneEnabled: true, phone: "" }, false, false],
    ["SMS on with a phone in error", { name: "Jane", isPhoneEnabled: true, phone: "123" }, true, false],
    ["SMS on with a good phone", { name: "Jane", isPhoneEnabled: true, phone: "6175550100" }, false, true],
    ["SMS off with a phone in error", { name: "Jane", isPhoneEnabled: false, phone: "123" }, true, true],
  ])("%s: %s", (_case, form, inError, allowed) => {
    expect(canSaveProfile(form, inError)).toBe(allowed);
  });
});

describe("initialCountry: the dial code select's country", () => {
  it.each([
    [
      "the stored phone's country",
      { phone: "+442079460958", countryDialCode: "+44", languages: ["en-US"] },
      "GB",
    ],
    [
      "the browser's country with no stored dial code",
      { phone: "", countryDialCode: "", languages: ["fr-FR", "en"] },
      "FR",
    ],
    [
      "US with no stored dial code and no region in the languages",
      { phone: "", countryDialCode: "", languages: ["en"] },
      "US",
    ],
    [
      "the browser's country when it shares the stored dial code",
      { phone: "", countryDialCode: "+1", languages: ["en-CA"] },
      "CA",
    ],
    [
      "US for +1 when the browser's country does not fit",
      { phone: "", countryDialCode: "+1", languages: ["de-DE"] },
      "US",
    ],
    [
      "a country with the stored dial code",
      { phone: "", countryDialCode: "+34", languages: ["en-US"] },
      "ES",
    ],
    [
      "a language region that is not a country",
      { phone: "", countryDialCode: "", languages: ["es-419"] },
      "US",
    ],
  ] as const)("%s", (_case, input, country) => {
    expect(initialCountry(input)).toBe(country);
  });
});

describe("nationalPart: the stored phone without its dial code", () => {
  it.each([
    ["+16175550100", "+1", "6175550100"],
    ["+442079460958", "+44", "2079460958"],
    ["", "+1", ""],
    ["+1999", "+1", "999"],
  ])("%s with %s shows %s", (phone, dialCode, shown) => {
    expect(nationalPart(phone, dialCode)).toBe(shown);
  });
});

describe("smsAlertsOffered", () => {
  it("only when some study has sms_enabled", () => {
    expect(smsAlertsOffered(undefined)).toBe(false);
    expect(smsAlertsOffered({})).toBe(false);
    expect(smsAlertsOffered({ 101: { sms_enabled: false } })).toBe(false);
    expect(smsAlertsOffered({ 101: { sms_enabled: false }, 102: { sms_enabled: true } })).toBe(true);
  });
});
