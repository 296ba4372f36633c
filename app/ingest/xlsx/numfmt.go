package xlsx

import "strings"

// builtinFormats are the number formats every workbook knows by id without
// declaring them (ECMA-376 part 1, 18.8.30), for the ids that matter when
// reading values: the rest show numbers as General does.
var builtinFormats = map[int]string{
	1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00",
	// Currency, in the dollars of the specification; each Excel shows
	// its own locale's currency.
	5: `"$"#,##0_);("$"#,##0)`, 6: `"$"#,##0_);[Red]("$"#,##0)`,
	7: `"$"#,##0.00_);("$"#,##0.00)`, 8: `"$"#,##0.00_);[Red]("$"#,##0.00)`,
	9: "0%", 10: "0.00%", 11: "0.00E+00", 12: "# ?/?", 13: "# ??/??",
	14: "mm-dd-yy", 15: "d-mmm-yy", 16: "d-mmm", 17: "mmm-yy",
	18: "h:mm AM/PM", 19: "h:mm:ss AM/PM", 20: "h:mm", 21: "h:mm:ss", 22: "m/d/yy h:mm",
	37: "#,##0 ;(#,##0)", 38: "#,##0 ;[Red](#,##0)", 39: "#,##0.00;(#,##0.00)", 40: "#,##0.00;[Red](#,##0.00)",
	45: "mm:ss", 46: "[h]:mm:ss", 47: "mmss.0", 48: "##0.0E+0", 49: "@",
	// Locale-specific date formats of East Asian Excel versions.
	27: "yyyy\"年\"m\"月\"", 28: "m\"月\"d\"日\"", 29: "m\"月\"d\"日\"", 30: "m-d-yy", 31: "yyyy\"年\"m\"月\"d\"日\"",
	32: "h\"時\"mm\"分\"", 33: "h\"時\"mm\"分\"ss\"秒\"", 34: "yyyy\"年\"m\"月\"", 35: "m\"月\"d\"日\"", 36: "yyyy\"年\"m\"月\"",
	50: "yyyy\"年\"m\"月\"", 51: "m\"月\"d\"日\"", 52: "yyyy\"年\"m\"月\"", 53: "m\"月\"d\"日\"", 54: "m\"月\"d\"日\"",
	55: "yyyy\"年\"m\"月\"", 56: "m\"月\"d\"日\"", 57: "yyyy\"年\"m\"月\"", 58: "m\"月\"d\"日\"",
}

// BuiltinFormat returns the format code of a built-in number format id, ""
// for General and unknown ids.
func BuiltinFormat(id int) string { return builtinFormats[id] }

// IsDateFormat reports whether a number format shows numbers as dates or
// times: it has day, month, year, hour or second codes outside quoted text,
// escapes and bracketed colours or conditions.
func IsDateFormat(code string) bool {
	if code == "" || strings.EqualFold(code, "General") {
		return false
	}
	// Only the first section (positive numbers) decides.
	inQuote := false
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case inQuote:
			if c == '"' {
				inQuote = false
			}
		case c == '"':
			inQuote = true
		case c == '\\' || c == '_' || c == '*':
			i++ // the next character is literal, or padding
		case c == '[':
			end := strings.IndexByte(code[i:], ']')
			if end < 0 {
				return false
			}
			inner := strings.ToLower(code[i+1 : i+end])
			// [h], [mm], [ss] are elapsed times; colours and conditions are not.
			if inner != "" && strings.Trim(inner, "hms") == "" {
				return true
			}
			i += end
		case c == ';':
			return false
		default:
			switch c | 0x20 {
			case 'd', 'm', 'y', 'h', 's':
				// "General" is handled above; an "e" or "E" exponent is not here.
				return true
			}
		}
	}
	return false
}
