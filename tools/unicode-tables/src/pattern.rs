//! `pattern/tables.rs`: the Unicode property data behind `\p{…}` in the
//! ECMA-262 pattern engine (`pattern/class.rs` reads it), from
//! `icu_properties`. A stored property is a list of code point ranges as
//! LEB128 varints alternating gap-from-previous-end and length; a derived one
//! is the union (or its complement) of others.
//!
//! The names are ECMA-262's (General_Category values, the binary properties,
//! Script values, each with its aliases); every one must be known to
//! `icu_properties` under that spelling, and every script with code points must
//! be listed, so a newer Unicode version cannot silently drop or add a name.

use icu_properties::props::{GeneralCategory, GeneralCategoryGroup, Script};
use icu_properties::script::ScriptWithExtensions;
use icu_properties::{
    CodePointMapData, CodePointSetData, PropertyNamesLong, PropertyNamesShort, PropertyParser,
};
use std::collections::{BTreeSet, HashMap};

/// Sorted, disjoint, non-adjacent inclusive ranges.
type Ranges = Vec<(u32, u32)>;

/// ECMA-262's General_Category values, one per `|`, each with its aliases.
const GC: &str = "Cc Control cntrl|Cf Format|Cn Unassigned|Co Private_Use|Cs Surrogate|C Other|LC Cased_Letter|L Letter|Ll Lowercase_Letter|Lm Modifier_Letter|Lo Other_Letter|Lt Titlecase_Letter|Lu Uppercase_Letter|M Mark Combining_Mark|Mc Spacing_Mark|Me Enclosing_Mark|Mn Nonspacing_Mark|N Number|Nd Decimal_Number digit|Nl Letter_Number|No Other_Number|P Punctuation punct|Pc Connector_Punctuation|Pd Dash_Punctuation|Pe Close_Punctuation|Pf Final_Punctuation|Pi Initial_Punctuation|Po Other_Punctuation|Ps Open_Punctuation|S Symbol|Sc Currency_Symbol|Sk Modifier_Symbol|Sm Math_Symbol|So Other_Symbol|Z Separator|Zl Line_Separator|Zp Paragraph_Separator|Zs Space_Separator";
/// ECMA-262's binary properties.
const BINARY: &str = "ASCII|ASCII_Hex_Digit AHex|Alphabetic Alpha|Any|Assigned|Bidi_Control Bidi_C|Bidi_Mirrored Bidi_M|Case_Ignorable CI|Cased|Changes_When_Casefolded CWCF|Changes_When_Casemapped CWCM|Changes_When_Lowercased CWL|Changes_When_NFKC_Casefolded CWKCF|Changes_When_Titlecased CWT|Changes_When_Uppercased CWU|Dash|Default_Ignorable_Code_Point DI|Deprecated Dep|Diacritic Dia|Emoji|Emoji_Component EComp|Emoji_Modifier EMod|Emoji_Modifier_Base EBase|Emoji_Presentation EPres|Extended_Pictographic ExtPict|Extender Ext|Grapheme_Base Gr_Base|Grapheme_Extend Gr_Ext|Hex_Digit Hex|IDS_Binary_Operator IDSB|IDS_Trinary_Operator IDST|ID_Continue IDC|ID_Start IDS|Ideographic Ideo|Join_Control Join_C|Logical_Order_Exception LOE|Lowercase Lower|Math|Noncharacter_Code_Point NChar|Pattern_Syntax Pat_Syn|Pattern_White_Space Pat_WS|Quotation_Mark QMark|Radical|Regional_Indicator RI|Sentence_Terminal STerm|Soft_Dotted SD|Terminal_Punctuation Term|Unified_Ideograph UIdeo|Uppercase Upper|Variation_Selector VS|White_Space space|XID_Continue XIDC|XID_Start XIDS";
/// The Script values (PropertyValueAliases.txt): alphabetical up to Unicode
/// 16.0, then Unicode 17.0's and 18.0's appended. Not Katakana_Or_Hiragana (Hrkt): it has no code point
/// and no JavaScript engine accepts it (tc39/ecma262#3590).
const SCRIPTS: &str = "Adlam Adlm|Ahom|Anatolian_Hieroglyphs Hluw|Arabic Arab|Armenian Armn|Avestan Avst|Balinese Bali|Bamum Bamu|Bassa_Vah Bass|Batak Batk|Bengali Beng|Bhaiksuki Bhks|Bopomofo Bopo|Brahmi Brah|Braille Brai|Buginese Bugi|Buhid Buhd|Canadian_Aboriginal Cans|Carian Cari|Caucasian_Albanian Aghb|Chakma Cakm|Cham|Cherokee Cher|Chorasmian Chrs|Common Zyyy|Coptic Copt Qaac|Cuneiform Xsux|Cypriot Cprt|Cypro_Minoan Cpmn|Cyrillic Cyrl|Deseret Dsrt|Devanagari Deva|Dives_Akuru Diak|Dogra Dogr|Duployan Dupl|Egyptian_Hieroglyphs Egyp|Elbasan Elba|Elymaic Elym|Ethiopic Ethi|Garay Gara|Georgian Geor|Glagolitic Glag|Gothic Goth|Grantha Gran|Greek Grek|Gujarati Gujr|Gunjala_Gondi Gong|Gurmukhi Guru|Gurung_Khema Gukh|Han Hani|Hangul Hang|Hanifi_Rohingya Rohg|Hanunoo Hano|Hatran Hatr|Hebrew Hebr|Hiragana Hira|Imperial_Aramaic Armi|Inherited Qaai Zinh|Inscriptional_Pahlavi Phli|Inscriptional_Parthian Prti|Javanese Java|Kaithi Kthi|Kannada Knda|Katakana Kana|Kawi|Kayah_Li Kali|Kharoshthi Khar|Khitan_Small_Script Kits|Khmer Khmr|Khojki Khoj|Khudawadi Sind|Kirat_Rai Krai|Lao Laoo|Latin Latn|Lepcha Lepc|Limbu Limb|Linear_A Lina|Linear_B Linb|Lisu|Lycian Lyci|Lydian Lydi|Mahajani Mahj|Makasar Maka|Malayalam Mlym|Mandaic Mand|Manichaean Mani|Marchen Marc|Masaram_Gondi Gonm|Medefaidrin Medf|Meetei_Mayek Mtei|Mende_Kikakui Mend|Meroitic_Cursive Merc|Meroitic_Hieroglyphs Mero|Miao Plrd|Modi|Mongolian Mong|Mro Mroo|Multani Mult|Myanmar Mymr|Nabataean Nbat|Nag_Mundari Nagm|Nandinagari Nand|New_Tai_Lue Talu|Newa|Nko Nkoo|Nushu Nshu|Nyiakeng_Puachue_Hmong Hmnp|Ogham Ogam|Ol_Chiki Olck|Ol_Onal Onao|Old_Hungarian Hung|Old_Italic Ital|Old_North_Arabian Narb|Old_Permic Perm|Old_Persian Xpeo|Old_Sogdian Sogo|Old_South_Arabian Sarb|Old_Turkic Orkh|Old_Uyghur Ougr|Oriya Orya|Osage Osge|Osmanya Osma|Pahawh_Hmong Hmng|Palmyrene Palm|Pau_Cin_Hau Pauc|Phags_Pa Phag|Phoenician Phnx|Psalter_Pahlavi Phlp|Rejang Rjng|Runic Runr|Samaritan Samr|Saurashtra Saur|Sharada Shrd|Shavian Shaw|Siddham Sidd|SignWriting Sgnw|Sinhala Sinh|Sogdian Sogd|Sora_Sompeng Sora|Soyombo Soyo|Sundanese Sund|Sunuwar Sunu|Syloti_Nagri Sylo|Syriac Syrc|Tagalog Tglg|Tagbanwa Tagb|Tai_Le Tale|Tai_Tham Lana|Tai_Viet Tavt|Takri Takr|Tamil Taml|Tangsa Tnsa|Tangut Tang|Telugu Telu|Thaana Thaa|Thai|Tibetan Tibt|Tifinagh Tfng|Tirhuta Tirh|Todhri Todr|Toto|Tulu_Tigalari Tutg|Ugaritic Ugar|Unknown Zzzz|Vai Vaii|Vithkuqi Vith|Wancho Wcho|Warang_Citi Wara|Yezidi Yezi|Yi Yiii|Zanabazar_Square Zanb|Beria_Erfe Berf|Sidetic Sidt|Tai_Yo Tayo|Tolong_Siki Tols|Jurchen Jurc|Proto_Cuneiform Pcun|Seal";

/// Properties that are unions (or the complement, `true`) of others, stored as such.
const DERIVED: &[(&str, bool, &[&str])] = &[
    ("C", false, &["Cc", "Cf", "Cn", "Co", "Cs"]),
    ("L", false, &["Lu", "Ll", "Lt", "Lm", "Lo"]),
    ("LC", false, &["Lu", "Ll", "Lt"]),
    ("M", false, &["Mc", "Me", "Mn"]),
    ("N", false, &["Nd", "Nl", "No"]),
    ("P", false, &["Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps"]),
    ("S", false, &["Sc", "Sk", "Sm", "So"]),
    ("Z", false, &["Zl", "Zp", "Zs"]),
    ("Assigned", true, &["Cn"]),
    ("Any", true, &[]),
];

/// `NAME_PROPS`' kind tags (its top two bits).
#[derive(Clone, Copy)]
enum Kind {
    Gc = 0,
    Binary = 1,
    Script = 2,
}

/// A property: its index among the stored or among the derived ones (ids are
/// given at the end: stored first).
#[derive(Clone, Copy)]
enum Prop {
    Stored(usize),
    Derived(usize),
}

/// Add `lo..=hi` (at or after the last range) to sorted ranges, merging.
pub fn push(ranges: &mut Ranges, lo: u32, hi: u32) {
    match ranges.last_mut() {
        Some(last) if lo <= last.1 + 1 => last.1 = last.1.max(hi),
        _ => ranges.push((lo, hi)),
    }
}

fn collect(iter: impl Iterator<Item = std::ops::RangeInclusive<u32>>) -> Ranges {
    let mut out = Ranges::new();
    for r in iter {
        push(&mut out, *r.start(), *r.end());
    }
    out
}

/// The code points of a General_Category value or group (`Lu`, `L`, `digit`, …).
pub fn general_category(name: &str) -> Ranges {
    let group = PropertyParser::<GeneralCategoryGroup>::new()
        .get_strict(name)
        .unwrap_or_else(|| panic!("icu_properties knows no General_Category {name}"));
    collect(CodePointMapData::<GeneralCategory>::new().iter_ranges_for_group(group))
}

/// The code points of one of ECMA-262's binary properties.
fn binary(name: &str) -> Ranges {
    match name {
        "ASCII" => vec![(0, 0x7F)],
        "Any" => vec![(0, 0x10_FFFF)],
        "Assigned" => complement(&general_category("Cn")),
        // ECMA-262 takes PropertyAliases.txt's other alias (`WSpace ; White_Space ;
        // space`); icu_properties' ECMA-262 lookup knows only WSpace.
        "space" => binary("White_Space"),
        _ => collect(
            CodePointSetData::new_for_ecma262(name.as_bytes())
                .unwrap_or_else(|| panic!("icu_properties knows no ECMA-262 property {name}"))
                .iter_ranges(),
        ),
    }
}

fn script(name: &str) -> Script {
    PropertyParser::<Script>::new()
        .get_strict(name)
        .unwrap_or_else(|| panic!("icu_properties knows no Script {name}"))
}

fn complement(ranges: &Ranges) -> Ranges {
    let mut out = Ranges::new();
    let mut next = 0;
    for &(lo, hi) in ranges {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = hi + 1;
    }
    if next <= 0x10_FFFF {
        out.push((next, 0x10_FFFF));
    }
    out
}

fn union(parts: &[&Ranges]) -> Ranges {
    let mut all: Ranges = parts.iter().flat_map(|r| r.iter().copied()).collect();
    all.sort_unstable();
    let mut out = Ranges::new();
    for (lo, hi) in all {
        push(&mut out, lo, hi);
    }
    out
}

/// Whether every code point of `inner` is in `outer`.
fn subset(inner: &Ranges, outer: &Ranges) -> bool {
    union(&[inner, outer]) == *outer
}

fn minus(a: &Ranges, b: &Ranges) -> Ranges {
    // a ∖ b = complement(complement(a) ∪ b)
    complement(&union(&[&complement(a), b]))
}

fn varint(mut n: u32, bytes: &mut Vec<u8>) {
    while n >= 0x80 {
        bytes.push((n & 0x7F) as u8 | 0x80);
        n >>= 7;
    }
    bytes.push(n as u8);
}

#[derive(Default)]
struct Tables<'a> {
    data: Vec<u8>,
    /// (start, end) in `data`.
    stored: Vec<(usize, usize)>,
    derived: Vec<(bool, Vec<Prop>)>,
    names: Vec<(Kind, &'a str, Prop)>,
    /// (the Script's property, its Script_Extensions') where they differ.
    scx: Vec<(Prop, Prop)>,
    /// First name of a line → its property and code points.
    index: HashMap<&'a str, (Prop, Ranges)>,
}

impl<'a> Tables<'a> {
    fn store(&mut self, ranges: &Ranges) -> Prop {
        let start = self.data.len();
        let mut prev = 0;
        for &(lo, hi) in ranges {
            varint(lo - prev, &mut self.data);
            varint(hi - lo + 1, &mut self.data);
            prev = hi + 1;
        }
        self.stored.push((start, self.data.len()));
        Prop::Stored(self.stored.len() - 1)
    }

    fn derive(&mut self, negate: bool, parts: Vec<Prop>) -> Prop {
        self.derived.push((negate, parts));
        Prop::Derived(self.derived.len() - 1)
    }

    /// One line of names (a value and its aliases) with its code points.
    fn add(&mut self, kind: Kind, line: &'a str, got: Ranges) {
        let all: Vec<&str> = line.split(' ').collect();
        let recipe = DERIVED.iter().find(|(n, _, _)| *n == all[0]);
        let prop = match (kind, recipe) {
            (Kind::Gc | Kind::Binary, Some(&(first, negate, parts))) => {
                let covers: Vec<&Ranges> = parts.iter().map(|p| &self.index[p].1).collect();
                let mut mine = union(&covers);
                if negate {
                    mine = complement(&mine);
                }
                assert!(mine == got, "{first}: derivation differs");
                let ids = parts.iter().map(|p| self.index[p].0).collect();
                self.derive(negate, ids)
            }
            _ => self.store(&got),
        };
        for &n in &all {
            self.names.push((kind, n, prop));
        }
        self.index.insert(all[0], (prop, got));
    }

    /// Script_Extensions: the script's own property when equal, else the
    /// script plus the extra code points (or, when it is no superset, its own ranges).
    fn add_scx(&mut self, line: &'a str, got: Ranges) {
        let first = line.split(' ').next().unwrap_or_default();
        let (sc_prop, sc) = self.index[first].clone();
        if got == sc {
            return;
        }
        let prop = if subset(&sc, &got) {
            let extra = self.store(&minus(&got, &sc));
            self.derive(false, vec![sc_prop, extra])
        } else {
            self.store(&got)
        };
        self.scx.push((sc_prop, prop));
    }

    fn id(&self, p: Prop) -> usize {
        match p {
            Prop::Stored(i) => i,
            Prop::Derived(i) => self.stored.len() + i,
        }
    }
}

/// Every name of a line must mean the same to `icu_properties`.
fn same<T: PartialEq + std::fmt::Debug>(line: &str, f: impl Fn(&str) -> T) -> T {
    let mut names = line.split(' ');
    let first = f(names.next().unwrap_or_default());
    for n in names {
        assert!(f(n) == first, "{line}: {n} means another property");
    }
    first
}

/// Every script with code points must be listed (a new Unicode version's too).
fn check_scripts_listed() {
    let listed: BTreeSet<Script> = SCRIPTS
        .split('|')
        .map(|l| script(l.split(' ').next().unwrap_or_default()))
        .collect();
    let missing: BTreeSet<Script> = CodePointMapData::<Script>::new()
        .iter_ranges()
        .map(|r| r.value)
        .filter(|sc| !listed.contains(sc))
        .collect();
    let names: Vec<String> = missing
        .into_iter()
        .map(|sc| {
            let long = PropertyNamesLong::<Script>::new().get(sc).unwrap_or("?");
            let short = PropertyNamesShort::<Script>::new().get(sc).unwrap_or("?");
            format!("{long} {short}")
        })
        .collect();
    assert!(
        names.is_empty(),
        "scripts with code points that SCRIPTS does not list (append them): {}",
        names.join("|")
    );
}

fn chunks<T: ToString>(items: &[T], n: usize, sep: &str, line_end: &str) -> String {
    items
        .chunks(n)
        .map(|c| {
            let words: Vec<String> = c.iter().map(T::to_string).collect();
            format!("    {}{line_end}", words.join(sep))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lines of `list` that are stored, then those derived from them.
fn stored_first(list: &str) -> Vec<&str> {
    let derived = |l: &str| DERIVED.iter().any(|d| l.split(' ').next() == Some(d.0));
    let (later, first): (Vec<&str>, Vec<&str>) = list.split('|').partition(|l| derived(l));
    first.into_iter().chain(later).collect()
}

/// The file's text.
pub fn tables() -> String {
    check_scripts_listed();
    let mut t = Tables::default();
    for l in stored_first(GC) {
        let got = same(l, general_category);
        t.add(Kind::Gc, l, got);
    }
    for l in stored_first(BINARY) {
        let got = same(l, binary);
        t.add(Kind::Binary, l, got);
    }
    let scx = ScriptWithExtensions::new();
    for l in SCRIPTS.split('|') {
        let sc = same(l, script);
        t.add(
            Kind::Script,
            l,
            collect(CodePointMapData::<Script>::new().iter_ranges_for_value(sc)),
        );
    }
    for l in SCRIPTS.split('|') {
        let sc = same(l, script);
        t.add_scx(l, collect(scx.get_script_extensions_ranges(sc)));
    }

    // Offsets are u16 and ids share a u16 with a two-bit kind in the Rust types.
    assert!(
        t.data.len() <= 0xFFFF && t.stored.len() + t.derived.len() < 1 << 14,
        "tables outgrew their types"
    );
    let names: Vec<&str> = t.names.iter().map(|n| n.1).collect();
    let tags: Vec<usize> = t
        .names
        .iter()
        .map(|&(k, _, p)| ((k as usize) << 14) | t.id(p))
        .collect();
    let mut offsets: Vec<usize> = t.stored.iter().map(|s| s.0).collect();
    offsets.push(t.data.len());
    let derived: Vec<String> = t
        .derived
        .iter()
        .map(|(negate, parts)| {
            let ids: Vec<String> = parts.iter().map(|&p| t.id(p).to_string()).collect();
            format!("    ({negate}, &[{}]),", ids.join(", "))
        })
        .collect();
    let scx: Vec<String> = t
        .scx
        .iter()
        .map(|&(a, b)| format!("    ({}, {}),", t.id(a), t.id(b)))
        .collect();
    let icu = crate::versions::locked("icu_properties");
    let data = crate::versions::locked("icu_properties_data");
    let (_, unicode) = crate::versions::versions();
    format!(
        "//! Generated by `cargo run -p unicode-tables -- pattern` from icu_properties {icu}
//! (icu_properties_data {data}, Unicode {unicode}); do not edit. A stored property's code points
//! are LEB128 varints in [`DATA`], alternating gap-from-previous-end and
//! length; a derived one is the union of others, or its complement.

/// Every accepted name, one space between, in the order of [`NAME_PROPS`].
pub(super) const NAMES: &str = \"\\
{}\";

/// Per name: its kind (top two bits: 0 General_Category, 1 binary, 2 Script) and property.
#[rustfmt::skip]
pub(super) const NAME_PROPS: &[u16] = &[
{}
];

/// Where each stored property's ranges start in [`DATA`]; the last entry is the end.
#[rustfmt::skip]
pub(super) const OFFSETS: &[u16] = &[
{}
];

/// The properties after the stored ones: (complement?, the union of these).
#[rustfmt::skip]
pub(super) const DERIVED: &[(bool, &[u16])] = &[
{}
];

/// Script_Extensions where it is not the Script: (the Script's property, its own).
#[rustfmt::skip]
pub(super) const SCRIPT_EXTENSIONS: &[(u16, u16)] = &[
{}
];

/// The ranges of every stored property, back to back.
#[rustfmt::skip]
pub(super) const DATA: &[u8] = &[
{}
];
",
        names
            .chunks(8)
            .map(|c| format!("    {}", c.join(" ")))
            .collect::<Vec<_>>()
            .join(" \\\n"),
        chunks(&tags, 16, ", ", ","),
        chunks(&offsets, 16, ", ", ","),
        derived.join("\n"),
        scx.join("\n"),
        chunks(&t.data, 24, ", ", ","),
    )
}
