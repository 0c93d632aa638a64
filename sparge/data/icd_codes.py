"""Diagnoses written as ICD-10 codes, read as groups a model can learn from.

A hospital's export writes a diagnosis as its ICD-10 code ("F32.1", "F321", "I21.4 -
NSTEMI", ICD-10-CM's "E11.65"). A cohort of a few hundred patients writes a hundred codes:
as text answers the column was left out (more than 30 answers), and with it what the
patients suffer from. Read by the classification's own hierarchy, the column is a few
groups: the three-character category ("F32"), the block ("F30–F39 Mood [affective]
disorders") or the chapter ("F00–F99 Mental and behavioural disorders"), the finest with at
most :data:`MAX_GROUPS` groups. The column stays as written beside a new one, "<name>
(ICD-10 block)", so the look-alike file keeps the full code.

The chapters and blocks are the WHO ICD-10 (2019) ones (ICD-10-CM's codes fall in them; a
code in no block is read as its chapter). Only a column named like a diagnosis or a code
whose written cells are mostly codes is read so: a ward "B12" is no code.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

import pandas as pd

from sparge.data.combined_cells import mostly, replaced, text_columns
from sparge.data.safe_text import quote as _q

#: ICD-10 chapters: (first category, last category, title).
CHAPTERS: tuple[tuple[str, str, str], ...] = (
    ("A00", "B99", "Certain infectious and parasitic diseases"),
    ("C00", "D48", "Neoplasms"),
    ("D50", "D89", "Diseases of the blood and immune mechanism"),
    ("E00", "E90", "Endocrine, nutritional and metabolic diseases"),
    ("F00", "F99", "Mental and behavioural disorders"),
    ("G00", "G99", "Diseases of the nervous system"),
    ("H00", "H59", "Diseases of the eye and adnexa"),
    ("H60", "H95", "Diseases of the ear and mastoid process"),
    ("I00", "I99", "Diseases of the circulatory system"),
    ("J00", "J99", "Diseases of the respiratory system"),
    ("K00", "K93", "Diseases of the digestive system"),
    ("L00", "L99", "Diseases of the skin and subcutaneous tissue"),
    ("M00", "M99", "Diseases of the musculoskeletal system and connective tissue"),
    ("N00", "N99", "Diseases of the genitourinary system"),
    ("O00", "O99", "Pregnancy, childbirth and the puerperium"),
    ("P00", "P96", "Certain conditions originating in the perinatal period"),
    ("Q00", "Q99", "Congenital malformations and chromosomal abnormalities"),
    ("R00", "R99", "Symptoms, signs and abnormal findings, not elsewhere classified"),
    ("S00", "T98", "Injury, poisoning and other consequences of external causes"),
    ("U00", "U85", "Codes for special purposes"),
    ("V01", "Y98", "External causes of morbidity and mortality"),
    ("Z00", "Z99", "Factors influencing health status and contact with health services"),
)

#: ICD-10 blocks: (first category, last category, short title).
BLOCKS: tuple[tuple[str, str, str], ...] = (
    ("A00", "A09", "Intestinal infectious diseases"), ("A15", "A19", "Tuberculosis"),
    ("A20", "A28", "Zoonotic bacterial diseases"), ("A30", "A49", "Other bacterial diseases"),
    ("A50", "A64", "Sexually transmitted infections"),
    ("A65", "A69", "Other spirochaetal diseases"), ("A70", "A74", "Chlamydial diseases"),
    ("A75", "A79", "Rickettsioses"), ("A80", "A89", "Viral infections of the CNS"),
    ("A92", "A99", "Arthropod-borne viral and haemorrhagic fevers"),
    ("B00", "B09", "Viral infections of skin and mucous membranes"),
    ("B15", "B19", "Viral hepatitis"), ("B20", "B24", "HIV disease"),
    ("B25", "B34", "Other viral diseases"), ("B35", "B49", "Mycoses"),
    ("B50", "B64", "Protozoal diseases"), ("B65", "B83", "Helminthiases"),
    ("B85", "B89", "Infestations"), ("B90", "B94", "Sequelae of infectious diseases"),
    ("B95", "B98", "Infectious agents"), ("B99", "B99", "Other infectious diseases"),
    ("C00", "C14", "Cancer of lip, oral cavity and pharynx"),
    ("C15", "C26", "Cancer of digestive organs"),
    ("C30", "C39", "Cancer of respiratory and intrathoracic organs"),
    ("C40", "C41", "Cancer of bone and articular cartilage"),
    ("C43", "C44", "Melanoma and other skin cancers"),
    ("C45", "C49", "Cancer of mesothelial and soft tissue"), ("C50", "C50", "Breast cancer"),
    ("C51", "C58", "Cancer of female genital organs"),
    ("C60", "C63", "Cancer of male genital organs"), ("C64", "C68", "Cancer of urinary tract"),
    ("C69", "C72", "Cancer of eye, brain and CNS"),
    ("C73", "C75", "Cancer of thyroid and endocrine glands"),
    ("C76", "C80", "Cancer of ill-defined, secondary and unspecified sites"),
    ("C81", "C96", "Lymphoid and haematopoietic cancers"),
    ("C97", "C97", "Multiple independent primary cancers"), ("D00", "D09", "In situ neoplasms"),
    ("D10", "D36", "Benign neoplasms"), ("D37", "D48", "Neoplasms of uncertain behaviour"),
    ("D50", "D53", "Nutritional anaemias"), ("D55", "D59", "Haemolytic anaemias"),
    ("D60", "D64", "Aplastic and other anaemias"),
    ("D65", "D69", "Coagulation defects and purpura"),
    ("D70", "D77", "Other diseases of blood"), ("D80", "D89", "Immune disorders"),
    ("E00", "E07", "Thyroid disorders"), ("E10", "E14", "Diabetes mellitus"),
    ("E15", "E16", "Other disorders of glucose regulation"),
    ("E20", "E35", "Disorders of other endocrine glands"), ("E40", "E46", "Malnutrition"),
    ("E50", "E64", "Other nutritional deficiencies"), ("E65", "E68", "Obesity"),
    ("E70", "E90", "Metabolic disorders"),
    ("F00", "F09", "Organic mental disorders"),
    ("F10", "F19", "Disorders due to psychoactive substance use"),
    ("F20", "F29", "Schizophrenia, schizotypal and delusional disorders"),
    ("F30", "F39", "Mood [affective] disorders"),
    ("F40", "F48", "Neurotic, stress-related and somatoform disorders"),
    ("F50", "F59", "Behavioural syndromes with physiological disturbances"),
    ("F60", "F69", "Disorders of adult personality and behaviour"),
    ("F70", "F79", "Intellectual disability"),
    ("F80", "F89", "Disorders of psychological development"),
    ("F90", "F98", "Behavioural and emotional disorders with onset in childhood"),
    ("F99", "F99", "Unspecified mental disorder"),
    ("G00", "G09", "Inflammatory diseases of the CNS"),
    ("G10", "G14", "Systemic atrophies of the CNS"),
    ("G20", "G26", "Extrapyramidal and movement disorders"),
    ("G30", "G32", "Other degenerative diseases of the nervous system"),
    ("G35", "G37", "Demyelinating diseases of the CNS"),
    ("G40", "G47", "Episodic and paroxysmal disorders"),
    ("G50", "G59", "Nerve, nerve root and plexus disorders"),
    ("G60", "G64", "Polyneuropathies"), ("G70", "G73", "Diseases of myoneural junction and muscle"),
    ("G80", "G83", "Cerebral palsy and other paralytic syndromes"),
    ("G90", "G99", "Other disorders of the nervous system"),
    ("H00", "H06", "Disorders of eyelid, lacrimal system and orbit"),
    ("H10", "H13", "Disorders of conjunctiva"),
    ("H15", "H22", "Disorders of sclera, cornea, iris and ciliary body"),
    ("H25", "H28", "Disorders of lens"), ("H30", "H36", "Disorders of choroid and retina"),
    ("H40", "H42", "Glaucoma"), ("H43", "H45", "Disorders of vitreous body and globe"),
    ("H46", "H48", "Disorders of optic nerve and visual pathways"),
    ("H49", "H52", "Disorders of ocular muscles and refraction"),
    ("H53", "H54", "Visual disturbances and blindness"),
    ("H55", "H59", "Other disorders of eye"), ("H60", "H62", "Diseases of external ear"),
    ("H65", "H75", "Diseases of middle ear and mastoid"), ("H80", "H83", "Diseases of inner ear"),
    ("H90", "H95", "Other disorders of ear"), ("I00", "I02", "Acute rheumatic fever"),
    ("I05", "I09", "Chronic rheumatic heart diseases"), ("I10", "I15", "Hypertensive diseases"),
    ("I20", "I25", "Ischaemic heart diseases"),
    ("I26", "I28", "Pulmonary heart disease and pulmonary circulation"),
    ("I30", "I52", "Other forms of heart disease"), ("I60", "I69", "Cerebrovascular diseases"),
    ("I70", "I79", "Diseases of arteries, arterioles and capillaries"),
    ("I80", "I89", "Diseases of veins and lymphatics"),
    ("I95", "I99", "Other disorders of the circulatory system"),
    ("J00", "J06", "Acute upper respiratory infections"), ("J09", "J18", "Influenza and pneumonia"),
    ("J20", "J22", "Other acute lower respiratory infections"),
    ("J30", "J39", "Other diseases of upper respiratory tract"),
    ("J40", "J47", "Chronic lower respiratory diseases"),
    ("J60", "J70", "Lung diseases due to external agents"),
    ("J80", "J84", "Interstitial respiratory diseases"),
    ("J85", "J86", "Suppurative and necrotic lower respiratory conditions"),
    ("J90", "J94", "Other diseases of pleura"),
    ("J95", "J99", "Other diseases of the respiratory system"),
    ("K00", "K14", "Diseases of oral cavity, salivary glands and jaws"),
    ("K20", "K31", "Diseases of oesophagus, stomach and duodenum"),
    ("K35", "K38", "Diseases of appendix"), ("K40", "K46", "Hernia"),
    ("K50", "K52", "Noninfective enteritis and colitis"),
    ("K55", "K64", "Other diseases of intestines"), ("K65", "K67", "Diseases of peritoneum"),
    ("K70", "K77", "Diseases of liver"),
    ("K80", "K87", "Disorders of gallbladder, biliary tract and pancreas"),
    ("K90", "K93", "Other diseases of the digestive system"),
    ("L00", "L08", "Infections of skin and subcutaneous tissue"),
    ("L10", "L14", "Bullous disorders"), ("L20", "L30", "Dermatitis and eczema"),
    ("L40", "L45", "Papulosquamous disorders"), ("L50", "L54", "Urticaria and erythema"),
    ("L55", "L59", "Radiation-related skin disorders"),
    ("L60", "L75", "Disorders of skin appendages"), ("L80", "L99", "Other skin disorders"),
    ("M00", "M03", "Infectious arthropathies"), ("M05", "M14", "Inflammatory polyarthropathies"),
    ("M15", "M19", "Arthrosis"), ("M20", "M25", "Other joint disorders"),
    ("M30", "M36", "Systemic connective tissue disorders"),
    ("M40", "M43", "Deforming dorsopathies"), ("M45", "M49", "Spondylopathies"),
    ("M50", "M54", "Other dorsopathies"), ("M60", "M63", "Disorders of muscles"),
    ("M65", "M68", "Disorders of synovium and tendon"),
    ("M70", "M79", "Other soft tissue disorders"),
    ("M80", "M85", "Disorders of bone density and structure"),
    ("M86", "M90", "Other osteopathies"), ("M91", "M94", "Chondropathies"),
    ("M95", "M99", "Other musculoskeletal disorders"), ("N00", "N08", "Glomerular diseases"),
    ("N10", "N16", "Renal tubulo-interstitial diseases"), ("N17", "N19", "Renal failure"),
    ("N20", "N23", "Urolithiasis"), ("N25", "N29", "Other disorders of kidney and ureter"),
    ("N30", "N39", "Other diseases of urinary system"),
    ("N40", "N51", "Diseases of male genital organs"), ("N60", "N64", "Disorders of breast"),
    ("N70", "N77", "Inflammatory diseases of female pelvic organs"),
    ("N80", "N98", "Noninflammatory disorders of female genital tract"),
    ("N99", "N99", "Other disorders of the genitourinary system"),
    ("O00", "O08", "Pregnancy with abortive outcome"),
    ("O10", "O16", "Hypertensive disorders in pregnancy"),
    ("O20", "O29", "Other maternal disorders of pregnancy"),
    ("O30", "O48", "Maternal care for the fetus and delivery problems"),
    ("O60", "O75", "Complications of labour and delivery"), ("O80", "O84", "Delivery"),
    ("O85", "O92", "Complications of the puerperium"),
    ("O94", "O99", "Other obstetric conditions"),
    ("P00", "P04", "Fetus affected by maternal factors and delivery"),
    ("P05", "P08", "Disorders of gestation length and fetal growth"),
    ("P10", "P15", "Birth trauma"),
    ("P20", "P29", "Perinatal respiratory and cardiovascular disorders"),
    ("P35", "P39", "Perinatal infections"),
    ("P50", "P61", "Haemorrhagic and haematological disorders of the newborn"),
    ("P70", "P74", "Transitory endocrine and metabolic disorders of the newborn"),
    ("P75", "P78", "Digestive disorders of the newborn"),
    ("P80", "P83", "Integument and temperature regulation of the newborn"),
    ("P90", "P96", "Other perinatal disorders"),
    ("Q00", "Q07", "Congenital malformations of the nervous system"),
    ("Q10", "Q18", "Congenital malformations of eye, ear, face and neck"),
    ("Q20", "Q28", "Congenital malformations of the circulatory system"),
    ("Q30", "Q34", "Congenital malformations of the respiratory system"),
    ("Q35", "Q37", "Cleft lip and cleft palate"),
    ("Q38", "Q45", "Congenital malformations of the digestive system"),
    ("Q50", "Q56", "Congenital malformations of genital organs"),
    ("Q60", "Q64", "Congenital malformations of the urinary system"),
    ("Q65", "Q79", "Congenital malformations of the musculoskeletal system"),
    ("Q80", "Q89", "Other congenital malformations"), ("Q90", "Q99", "Chromosomal abnormalities"),
    ("R00", "R09", "Circulatory and respiratory symptoms and signs"),
    ("R10", "R19", "Digestive and abdominal symptoms and signs"),
    ("R20", "R23", "Skin symptoms and signs"),
    ("R25", "R29", "Nervous and musculoskeletal symptoms and signs"),
    ("R30", "R39", "Urinary symptoms and signs"),
    ("R40", "R46", "Cognition, perception, emotion and behaviour symptoms"),
    ("R47", "R49", "Speech and voice symptoms"), ("R50", "R69", "General symptoms and signs"),
    ("R70", "R79", "Abnormal blood findings"), ("R80", "R82", "Abnormal urine findings"),
    ("R83", "R89", "Abnormal findings in other body fluids and tissues"),
    ("R90", "R94", "Abnormal imaging and function study findings"),
    ("R95", "R99", "Ill-defined and unknown causes of mortality"),
    ("S00", "S09", "Injuries to the head"), ("S10", "S19", "Injuries to the neck"),
    ("S20", "S29", "Injuries to the thorax"),
    ("S30", "S39", "Injuries to the abdomen, lower back, lumbar spine and pelvis"),
    ("S40", "S49", "Injuries to the shoulder and upper arm"),
    ("S50", "S59", "Injuries to the elbow and forearm"),
    ("S60", "S69", "Injuries to the wrist and hand"),
    ("S70", "S79", "Injuries to the hip and thigh"),
    ("S80", "S89", "Injuries to the knee and lower leg"),
    ("S90", "S99", "Injuries to the ankle and foot"),
    ("T00", "T07", "Injuries involving multiple body regions"),
    ("T08", "T14", "Injuries to unspecified body regions"),
    ("T15", "T19", "Foreign body through natural orifice"), ("T20", "T32", "Burns and corrosions"),
    ("T33", "T35", "Frostbite"), ("T36", "T50", "Poisoning by drugs and biological substances"),
    ("T51", "T65", "Toxic effects of nonmedicinal substances"),
    ("T66", "T78", "Other effects of external causes"),
    ("T79", "T79", "Early complications of trauma"),
    ("T80", "T88", "Complications of surgical and medical care"),
    ("T90", "T98", "Sequelae of injuries and poisoning"),
    ("U00", "U85", "Codes for special purposes"), ("V01", "V99", "Transport accidents"),
    ("W00", "X59", "Other accidental injury"), ("X60", "X84", "Intentional self-harm"),
    ("X85", "Y09", "Assault"), ("Y10", "Y34", "Event of undetermined intent"),
    ("Y35", "Y36", "Legal intervention and war"),
    ("Y40", "Y84", "Complications of medical and surgical care"),
    ("Y85", "Y98", "Sequelae and supplementary factors of external causes"),
    ("Z00", "Z13", "Examination and investigation"),
    ("Z20", "Z29", "Potential health hazards related to communicable diseases"),
    ("Z30", "Z39", "Health services related to reproduction"),
    ("Z40", "Z54", "Health services for specific procedures and care"),
    ("Z55", "Z65", "Socioeconomic and psychosocial circumstances"),
    ("Z70", "Z76", "Health services in other circumstances"),
    ("Z80", "Z99", "Family and personal history and conditions influencing health"),
)

_BLOCK_STARTS = [b[0] for b in BLOCKS]
_CHAPTER_STARTS = [c[0] for c in CHAPTERS]

#: A code at the start of a cell: a letter, two digits (ICD-10-CM's "C4A", "D3A" too), and
#: the subdivision with or without its dot ("F32.1", "F321", "E11.65", "S72.001A").
_CODE = re.compile(r"\s*([A-Z])(\d)([0-9AB])(?:\.?([0-9][0-9A-Z]{0,3}))?(?=$|[\s\-–:,;(/])")
#: A column named like a diagnosis or a code ("Primary diagnosis", "ICD-10", "Dx",
#: "Diagnosis code", "Cause of death", "Reason for admission"): a "Ward" of "B12" is none.
_NAMED = re.compile(r"diagnos|\bdx\b|\bicd|\bcode\b|\bcause|\breason\b|condition|comorbid|"
                    r"problem|disease|morbidit|disorder", re.IGNORECASE)
#: A second code after a list's separator ("F32.1, F41.1"), and the share of the coded
#: cells with one that makes the column a list, not one diagnosis a patient.
_SECOND = re.compile(r"[,;/+&]\s*[A-Z]\d[0-9AB]", re.IGNORECASE)
LIST_SHARE = 0.1
#: Patients share diagnoses: a column of more different codes than this share of its
#: coded cells is a reference ("R10X" a referral's) more than a diagnosis.
REPEAT_SHARE = 0.5
#: Share of a column's written cells that must be codes; fewest codes.
CODE_SHARE = 0.8
CODE_MIN = 10
#: A column with at most this many different answers is kept as its answers (the
#: encoder's default ``max_levels``): read as groups only when it has more.
MAX_GROUPS = 30
#: The levels read, finest first, and the suffix of the new column's name.
LEVELS = ("category", "block", "chapter")
_SUFFIX = " (ICD-10 {})"


def icd_code(cell: object) -> str | None:
    """The ICD-10 code a cell starts with, as "F32.1" (``None`` when it starts with none).

    Examples
    --------
    >>> icd_code("F321 Moderate depressive episode"), icd_code("i21.4 - NSTEMI")
    ('F32.1', 'I21.4')
    >>> icd_code("E11.65"), icd_code("C50"), icd_code("Pneumonia"), icd_code("B12a")
    ('E11.65', 'C50', None, None)
    """
    m = _CODE.match(str(cell)[:40].upper())
    if m is None:
        return None
    head = "".join(m.groups()[:3])
    return head + (f".{m.group(4)}" if m.group(4) else "")


@lru_cache(maxsize=8192)
def icd_group(code: str, level: str) -> str:
    """The group of an ICD-10 code (:func:`icd_code`) at a ``level`` of :data:`LEVELS`:
    "F32 (Mood [affective] disorders)", "F30–F39 Mood [affective] disorders", "F00–F99
    Mental and behavioural disorders". A code in no block is read as its chapter."""
    cat = code[:3]
    chapter = _find(CHAPTERS, _CHAPTER_STARTS, cat)
    block = _find(BLOCKS, _BLOCK_STARTS, cat)
    if level == "category":
        return f"{cat} ({block[2]})" if block else cat
    found = block if level == "block" and block else chapter
    if found is None:
        return cat
    first, last, title = found
    return f"{first}–{last} {title}" if first != last else f"{first} {title}"


def _find(table, starts, cat: str):
    i = bisect.bisect_right(starts, cat) - 1
    return table[i] if i >= 0 and table[i][0] <= cat <= table[i][1] else None


def _may_hold_codes(values: pd.Series) -> bool:
    return mostly(values, icd_code, CODE_SHARE / 2, CODE_MIN)


def icd_source(column: str) -> tuple[str, str] | None:
    """``(source column, level)`` of a column this module adds ("Diagnosis (ICD-10
    block)": ``("Diagnosis", "block")``), or ``None``."""
    for level in LEVELS:
        suffix = _SUFFIX.format(level)
        if str(column).endswith(suffix) and len(column) > len(suffix):
            return str(column)[:-len(suffix)], level
    return None


def read_icd_codes(df: pd.DataFrame, known=(), skip=()) -> pd.DataFrame:
    """The table with each column of ICD-10 codes followed by its groups, "<name> (ICD-10
    <level>)" (a note in ``df.attrs["sparge_read_notes"]`` says so): the finest level of
    :data:`LEVELS` with at most :data:`MAX_GROUPS` groups, for a column of more
    different answers than that. A table without one is returned as it is.

    Parameters
    ----------
    df : DataFrame
    known : iterable of str
        A model's input columns: a new patients' table reads its source columns at the
        model's level however few its rows.
    skip : iterable of str
        Columns never read so (the ID, the outcome).
    """
    levels = dict(s for s in map(icd_source, known) if s is not None)
    skip = {str(c) for c in skip}
    out = df
    # the names first (cheap): a column named like a diagnosis or a model's
    named = [c for c in df.columns if str(c) not in skip
             and (str(c) in levels or _NAMED.search(str(c)) is not None)]
    for col, forced in text_columns(df[named], levels, _may_hold_codes) if named else ():
        col = str(col)
        text = df[col].astype("string").str.strip().fillna("").astype(object)
        codes = text.map(icd_code)
        written = text != ""
        found = int(codes.notna().sum())
        if col in levels:
            level = levels[col]
        else:
            if found < CODE_MIN or found < CODE_SHARE * int(written.sum()):
                continue
            if text.str.slice(0, 300).str.contains(_SECOND).sum() >= LIST_SHARE * found:
                continue  # lists of codes ("F32.1, F41.1"): read as a list's answers
            if codes.dropna().nunique() > REPEAT_SHARE * found:
                continue  # nearly one code a patient: references, not diagnoses
            if codes.dropna().nunique() <= MAX_GROUPS and \
                    text[written].nunique() <= MAX_GROUPS:
                continue  # kept as its answers
            level = next((lv for lv in LEVELS
                          if codes.dropna().map(lambda c, lv=lv: icd_group(c, lv)).nunique()
                          <= MAX_GROUPS), LEVELS[-1])
        name = col + _SUFFIX.format(level)
        if name in out.columns:
            continue
        groups = codes.map(lambda c, lv=level: icd_group(c, lv) if c else "")
        new = pd.DataFrame({col: df[col], name: groups.to_numpy(dtype=object)},
                           index=df.index)
        note = ""
        if not forced:
            other = int(written.sum()) - found
            n_groups = groups[groups != ""].nunique()
            example = text[codes.notna()].iloc[0] if found else ""
            note = (f"Column '{_q(col)}' holds ICD-10 codes (e.g. '{_q(example, 30)}'), "
                    f"{codes.dropna().nunique():,} different ones: read by their {level} in "
                    f"a new column '{_q(name)}' ({n_groups} groups)"
                    + (f"; its {other:,} written cell(s) without a code are gaps there"
                       if other else "") + ".")
        out = replaced(out, col, new, note)
    return out


__all__ = ["BLOCKS", "CHAPTERS", "LEVELS", "MAX_GROUPS", "icd_code", "icd_group",
           "icd_source", "read_icd_codes"]
