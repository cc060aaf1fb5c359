/** dayjs's ES locale files (no declarations of their own): each exports its definition. */
declare module "dayjs/esm/locale/*.js" {
  const locale: ILocale;
  export default locale;
}
