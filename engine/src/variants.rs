//! Named presets: every variant of the rule sources, plus OpenTafl's own variants; docs/rules.md
//! states each preset's rules.
//! Each is an OpenTafl rules string (with this engine's `x` keys where OpenTafl has no word),
//! so a preset reads exactly like a rules string a user could type.

use crate::rules::Rules;

/// A named rule set.
#[derive(Debug)]
pub struct Variant {
    pub id: &'static str,
    pub name: &'static str,
    /// The rule source (numbered as in docs/rules.md, Sources) or published rules the preset
    /// follows.
    pub source: &'static str,
    pub rules_string: &'static str,
}

impl Variant {
    pub fn rules(&self) -> Rules {
        match Rules::from_opentafl(self.rules_string) {
            Ok(rules) => rules,
            // The strings are constants, each read back by the `every_preset_parses` test.
            Err(e) => unreachable!("preset {} has a bad rules string: {e}", self.id),
        }
    }
}

/// All presets, in the order they are listed to players.
pub fn variants() -> &'static [Variant] {
    &VARIANTS
}

/// The preset with this id (case-insensitive).
pub fn variant(id: &str) -> Option<&'static Variant> {
    let id = id.trim();
    VARIANTS.iter().find(|v| v.id.eq_ignore_ascii_case(id))
}

macro_rules! tablut_family {
    ($dim:literal, $layout:expr) => {
        concat!(
            "dim:", $dim,
            " esc:e surf:y atkf:y tfr:l ka:y ks:c cor: cenh:t cenhe:tTK cenp:tTK cens:K cenre:tTK xdf:y start:",
            $layout
        )
    };
}

static VARIANTS: [Variant; 19] = [
    Variant {
        id: "tablut",
        name: "Tablut",
        source: "004 (www.KVASIRTHESEER.com Tablut) and 003 (Saami Tablut 9x9)",
        rules_string: tablut_family!("9", "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"),
    },
    Variant {
        id: "brandubh",
        name: "Brandubh",
        source: "003 (Irish Brandubh 7x7, §3a and §6a)",
        rules_string: "dim:7 esc:c surf:y atkf:y tfr:l ka:y ks:c corh:tTK corp:K cors:K corre:tTK cenh:t cenhe:tTK cenp:tTK cens:K cenre:tTK xdf:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    },
    Variant {
        id: "ard-ri",
        name: "Ard Ri",
        source: "003 (Scottish Ard Ri 7x7, §3a: no throne, no restricted squares)",
        rules_string: "dim:7 esc:e surf:y atkf:y tfr:l ka:y ks:w cor: cen: xdf:y start:/2ttt2/3t3/t1TTT1t/ttTKTtt/t1TTT1t/3t3/2ttt2/",
    },
    Variant {
        id: "tawlbwrdd",
        name: "Tawlbwrdd",
        source: "003 (Welsh Tawlbwrdd 11x11; layout after R. C. Bell)",
        rules_string: tablut_family!(
            "11",
            "/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/"
        ),
    },
    Variant {
        id: "hnefatafl-13",
        name: "Hnefatafl 13x13",
        source: "003 (13x13 board; layout after D. Parlett)",
        rules_string: tablut_family!(
            "13",
            "/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/"
        ),
    },
    Variant {
        id: "hnefatafl-15",
        name: "Hnefatafl 15x15",
        source: "003 (15x15 board; layout from OpenTafl's 15x15 tablut)",
        rules_string: tablut_family!(
            "15",
            "/5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5/"
        ),
    },
    Variant {
        id: "tablut-castle",
        name: "Tablut (closed castle)",
        source: "000 (japonek.github.io Tablut: the castle cannot be entered once the king has left)",
        rules_string: "dim:9 esc:e surf:n atkf:y tfr:d ka:y ks:c cor: cenh:t cenhe:tTK cenp: cens:K cenre: linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    },
    Variant {
        id: "tablut-castle-open",
        name: "Tablut (open castle)",
        source: "000 (japonek.github.io Tablut: the king may re-enter, all may pass through)",
        rules_string: "dim:9 esc:e surf:n atkf:y tfr:d ka:y ks:c cor: cenh:t cenhe:tTK cenp:tTK cens:K cenre:tTK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    },
    Variant {
        id: "tablut-linnaeus",
        name: "Tablut (Linnaeus)",
        source: "002 (Linnaeus' Tablut, 1732)",
        rules_string: "dim:9 esc:e surf:n atkf:n tfr:d ka:n ks:s cor: cenh: cenhe:K cenp:tTK cens:K cenre: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    },
    Variant {
        id: "tablut-linnaeus-edge",
        name: "Tablut (Linnaeus, corners, edge capture)",
        // The edge capture needs a king who can stand on the edge without having won, so this
        // option plays with corner escape (with edge escape it could never apply).
        source: "002 (option: \"by three soldiers and a board edge\", with corner escape)",
        rules_string: "dim:9 esc:c surf:n atkf:n tfr:d ka:n ks:m corh: corp:K cors:K corre:tTK cenh: cenhe:K cenp:tTK cens:K cenre: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    },
    Variant {
        id: "tablut-linnaeus-corner",
        name: "Tablut (Linnaeus, corner escape)",
        source: "002 (option: \"The white wins when the King reach the corner square\")",
        rules_string: "dim:9 esc:c surf:n atkf:n tfr:d ka:n ks:s corh: corp:K cors:K corre:tTK cenh: cenhe:K cenp:tTK cens:K cenre: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    },
    Variant {
        id: "slavic-9",
        name: "Slavic tafl 9x9 (Tablot)",
        source: "001 (Viking or Slavic Chess, 9x9: corner escape)",
        rules_string: "dim:9 esc:c surf:n atkf:y tfr:d ka:y ks:c spd:-1,-1,-1,-1,-1,-1,-1,-1,3,-1 corh:tT corp:K cors:K corre:tTK cenh: cenhe:tTK cenp: cens:K cenre: afor:d1,e1,f1,e2,a4,a5,a6,b5,i4,i5,i6,h5,e8,d9,e9,f9, aforh: aforp: afors:t aforre: xslc:y xres:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    },
    Variant {
        id: "slavic-13",
        name: "Slavic tafl 13x13 (Hnefatafl)",
        source: "001 (Viking or Slavic Chess, 13x13: any border square but fortresses; layout after D. Parlett)",
        rules_string: "dim:13 esc:e surf:n atkf:y tfr:d ka:y ks:c spd:-1,-1,-1,-1,-1,-1,-1,-1,3,-1 corh:tT corp:K cors:K corre:tTK cenh: cenhe:tTK cenp: cens:K cenre: afor:e1,f1,g1,h1,i1,f2,h2,g3,a5,m5,a6,b6,l6,m6,a7,c7,k7,m7,a8,b8,l8,m8,a9,m9,g11,f12,h12,e13,f13,g13,h13,i13, aforh: aforp: afors:t aforre: xslc:y xres:y start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/",
    },
    Variant {
        id: "copenhagen",
        name: "Copenhagen Hnefatafl",
        source: "World Tafl Federation's Copenhagen rules (not in the rule files)",
        rules_string: "dim:11 esc:c surf:y atkf:y tfr:l ka:y ks:s sw:s swf:y efe:y xrdl:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    },
    Variant {
        id: "fetlar",
        name: "Fetlar Hnefatafl",
        source: "OpenTafl notation spec example (Fetlar)",
        rules_string: "dim:11 atkf:n start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    },
    Variant {
        id: "brandub-opentafl",
        name: "Brandub (OpenTafl)",
        source: "OpenTafl's Brandub rules string",
        rules_string: "dim:7 surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    },
    Variant {
        id: "brandubh-hnefatafl-org",
        name: "Brandubh (hnefatafl.org)",
        source: "hnefatafl.org's 7x7 rules, as the hnefatafl-copenhagen engine (6.4) plays them: defenders first, armed king, strong on the throne only, the empty throne hostile to soldiers only and crossed by the king alone",
        rules_string: "dim:7 esc:c surf:y atkf:n tfr:l ka:y ks:w xkt:y corh:tTK corp:K cors:K corre:tTK cenh:t cenhe:tT cenp:K cens:K cenre:tTK sw:s swf:y xrdl:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    },
    Variant {
        id: "tablut-opentafl",
        name: "Tablut (OpenTafl)",
        source: "OpenTafl's Tablut rules string",
        rules_string: "dim:9 esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    },
    Variant {
        id: "sea-battle-9",
        name: "Sea Battle 9x9",
        source: "OpenTafl notation spec example (Sea Battle 9x9)",
        rules_string: "dim:9 esc:e ka:n cen: cenhe: cor: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    },
];
