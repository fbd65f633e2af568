"""Phone number vectors from libphonenumber (PyPI phonenumbers) for PhoneNumberTests: one JSON line per case.

Every region's example number of every type, written as people type them (international format, spaces and dashes)
with the E.164 form and region libphonenumber gives; then, for each, the national number cut or stretched to a
length no region of its calling code uses, which must be refused.
"""
import json

import phonenumbers
from phonenumbers import PhoneMetadata, PhoneNumberFormat, PhoneNumberType
from phonenumbers.phonenumberutil import COUNTRY_CODE_TO_REGION_CODE


def lengths(code):
    found = set()
    for region in COUNTRY_CODE_TO_REGION_CODE[code]:
        meta = PhoneMetadata.metadata_for_nongeo_region(code) if region == "001" else PhoneMetadata.metadata_for_region(region)
        if meta is not None:
            found.update(meta.general_desc.possible_length or ())
    return found


def main():
    types = [t for t in vars(PhoneNumberType).values() if isinstance(t, int) and t != PhoneNumberType.UNKNOWN]
    regions = set(phonenumbers.SUPPORTED_REGIONS)
    seen = set()
    for region in sorted(regions):
        for kind in types:
            number = phonenumbers.example_number_for_type(region, kind)
            if number is None:
                continue
            e164 = phonenumbers.format_number(number, PhoneNumberFormat.E164)
            if e164 in seen:
                continue
            seen.add(e164)
            typed = phonenumbers.format_number(number, PhoneNumberFormat.INTERNATIONAL)
            print(json.dumps({"raw": typed, "e164": e164, "region": phonenumbers.region_code_for_number(number)}))
            national = str(number.national_number)
            allowed = lengths(number.country_code)
            for length in (len(national) - 3, len(national) + 3):
                if length > 0 and length not in allowed and len(str(number.country_code)) + length <= 15:
                    bad = "+" + str(number.country_code) + (national * 3)[:length]
                    print(json.dumps({"raw": bad, "e164": None, "region": None}))


if __name__ == "__main__":
    main()
