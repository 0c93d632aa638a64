"""Drug combinations written several ways: "TDF/FTC/EFV", "EFV + Truvada" and "Atripla" are
one regimen (walk-through 37's HIV clinic wrote its 6 regimens 22 ways, and the look-alike
summary counted "TDF/FTC/EFV: 3, Atripla: 2" as two regimens).

An answer is read as the set of drugs it names: its parts (split at "/", "+", ",", "and",
"with") are each a drug's generic name, a standard abbreviation or a brand name for one or
more drugs (antiretrovirals, whose abbreviations and fixed-dose brands clinic exports mix
most). Two answers naming the same set are one answer. So are two answers whose parts are
the same words in another order ("A/B" and "B + A"), whatever the drugs. Only in a column
named like a regimen or a treatment: elsewhere "A/B" may be a ratio or a choice.
"""

from __future__ import annotations

import re

from sparge.data.tables import norm_key

#: A column that lists a patient's drugs.
REGIMEN_COLUMN = re.compile(r"regimen|\bart\b|\barvs?\b|antiretro|haart|\bcart\b|medication|"
                            # walk-through 106's "Phosphate binder", "IV iron"
                            r"binders?\b|\biv iron\b|\biron (?:therapy|supplement|"
                            r"replacement)|\boral iron\b|"
                            r"\bdrugs?\b|therapy|treatment|\bmeds?\b|combination|"
                            r"anti[\s-]?coag|antiplatelet|\b[dn]oacs?\b|statin|\besas?\b|"
                            r"erythropoie|\bepo\b|antibiotic|\babx\b|antimicrob|"
                            r"antipsychotic|antidepressant|cognitive enhancer|achei|"
                            r"cholinesterase|dmard|biologic|\bjak|steroid|"
                            r"immunosuppress|modulator|cftr|nebuli[sz]ed|inhaled|"
                            r"induction|maintenance|\bdmts?\b|disease[\s-]?modifying|"
                            r"\basms?\b|\baeds?\b|anti[\s-]?seizure|anti[\s-]?epilep|"
                            r"anticonvuls|vasopressor|\bpressors?\b|inotrop|vasoactive|"
                            r"bone protection|bisphosphonate|anti[\s-]?resorptive|"
                            r"osteoporosis (?:drug|treatment|medication)|bone health|"
                            # walk-through 104's medical retina clinic ("Anti-VEGF agent")
                            r"anti[\s-]?vegf|\bagent\b|intravitreal|injection drug",
                            re.IGNORECASE)

_TDF, _TAF = "tenofovir disoproxil", "tenofovir alafenamide"
#: Generic names and standard abbreviations of one drug (keys as :func:`norm_key` writes
#: them, spaces removed).
_DRUGS: dict[str, str] = {
    **dict.fromkeys(("tdf", "tenofovir", "tenofovirdisoproxil", "tenofovirdf",
                     "tenofovirdisoproxilfumarate"), _TDF),
    **dict.fromkeys(("taf", "tenofoviralafenamide"), _TAF),
    **dict.fromkeys(("ftc", "emtricitabine"), "emtricitabine"),
    **dict.fromkeys(("3tc", "lamivudine"), "lamivudine"),
    **dict.fromkeys(("dtg", "dolutegravir"), "dolutegravir"),
    **dict.fromkeys(("bic", "bictegravir"), "bictegravir"),
    **dict.fromkeys(("efv", "efavirenz"), "efavirenz"),
    **dict.fromkeys(("abc", "abacavir"), "abacavir"),
    **dict.fromkeys(("drv", "darunavir"), "darunavir"),
    **dict.fromkeys(("r", "rtv", "ritonavir"), "ritonavir"),
    **dict.fromkeys(("c", "cobi", "cobicistat"), "cobicistat"),
    **dict.fromkeys(("azt", "zdv", "zidovudine"), "zidovudine"),
    **dict.fromkeys(("nvp", "nevirapine"), "nevirapine"),
    **dict.fromkeys(("ral", "raltegravir"), "raltegravir"),
    **dict.fromkeys(("evg", "elvitegravir"), "elvitegravir"),
    **dict.fromkeys(("rpv", "rilpivirine"), "rilpivirine"),
    **dict.fromkeys(("atv", "atazanavir"), "atazanavir"),
    **dict.fromkeys(("lpv", "lopinavir"), "lopinavir"),
    **dict.fromkeys(("cab", "cabotegravir"), "cabotegravir"),
    **dict.fromkeys(("dor", "doravirine"), "doravirine"),
    **dict.fromkeys(("etr", "etv", "etravirine"), "etravirine"),
    **dict.fromkeys(("d4t", "stavudine"), "stavudine"),
    **dict.fromkeys(("ddi", "didanosine"), "didanosine"),
    **dict.fromkeys(("mvc", "maraviroc"), "maraviroc"),
    # anticoagulants, antiplatelets, thrombolytics and statins, which a stroke unit's or a
    # cardiology export names by generic or brand (walk-through 39: "Eliquis", "apixaban"
    # and "apixaban 5mg bd" were three answers)
    **dict.fromkeys(("apixaban",), "apixaban"),
    **dict.fromkeys(("rivaroxaban",), "rivaroxaban"),
    **dict.fromkeys(("dabigatran", "dabigatranetexilate"), "dabigatran"),
    **dict.fromkeys(("edoxaban",), "edoxaban"),
    **dict.fromkeys(("warfarin", "warfarinsodium"), "warfarin"),
    **dict.fromkeys(("heparin", "ufh", "unfractionatedheparin"), "heparin"),
    **dict.fromkeys(("enoxaparin", "lmwh"), "enoxaparin"),
    **dict.fromkeys(("aspirin", "asa", "acetylsalicylicacid"), "aspirin"),
    **dict.fromkeys(("clopidogrel", "clopidogral", "clopidogrol", "clopidigrel"), "clopidogrel"),
    # a thyroid clinic's drugs (walk-through 89: "CMZ 40", "carbimazole 40mg od" and
    # "Carbimazole 40 mg once daily"; "LT4 75 micrograms", "Eltroxin 75" and "thyroxine
    # 75mcg od")
    **dict.fromkeys(("carbimazole", "cmz"), "carbimazole"),
    **dict.fromkeys(("methimazole", "thiamazole", "mmi"), "methimazole"),
    **dict.fromkeys(("propylthiouracil", "ptu"), "propylthiouracil"),
    **dict.fromkeys(("levothyroxine", "lt4", "thyroxine", "l-thyroxine", "levothyroxinesodium",
                     "levo-thyroxine"), "levothyroxine"),
    **dict.fromkeys(("liothyronine", "lt3"), "liothyronine"),
    **dict.fromkeys(("propranolol",), "propranolol"),
    **dict.fromkeys(("ticagrelor",), "ticagrelor"),
    **dict.fromkeys(("prasugrel",), "prasugrel"),
    **dict.fromkeys(("dipyridamole",), "dipyridamole"),
    **dict.fromkeys(("alteplase", "tpa", "rtpa", "ivtpa"), "alteplase"),
    **dict.fromkeys(("tenecteplase", "tnk"), "tenecteplase"),
    # statins and the lipid clinic's other drugs, by generic and short name (walk-through
    # 90: "Atorva 40mg" and "atorvastatin 40 mg ON", "Leqvio 284mg 6-monthly" and
    # "inclisiran" were apart)
    **dict.fromkeys(("atorvastatin", "atorva", "atorv"), "atorvastatin"),
    **dict.fromkeys(("simvastatin", "simva", "simv"), "simvastatin"),
    **dict.fromkeys(("rosuvastatin", "rosuva", "rosu", "rosuv"), "rosuvastatin"),
    **dict.fromkeys(("pravastatin", "prava"), "pravastatin"),
    **dict.fromkeys(("fluvastatin", "fluva"), "fluvastatin"),
    **dict.fromkeys(("pitavastatin", "pitava"), "pitavastatin"),
    **dict.fromkeys(("lovastatin",), "lovastatin"),
    **dict.fromkeys(("ezetimibe", "ezetemibe", "ezetimib", "eze", "ezet"), "ezetimibe"),
    **dict.fromkeys(("evolocumab",), "evolocumab"),
    **dict.fromkeys(("alirocumab",), "alirocumab"),
    **dict.fromkeys(("inclisiran",), "inclisiran"),
    **dict.fromkeys(("bempedoicacid", "bempedoic"), "bempedoic acid"),
    **dict.fromkeys(("fenofibrate",), "fenofibrate"),
    **dict.fromkeys(("bezafibrate",), "bezafibrate"),
    **dict.fromkeys(("gemfibrozil",), "gemfibrozil"),
    **dict.fromkeys(("ciprofibrate",), "ciprofibrate"),
    **dict.fromkeys(("icosapentethyl", "icosapent"), "icosapent ethyl"),
    **dict.fromkeys(("omega3", "omega-3", "omacor"), "omega-3 acid ethyl esters"),
    **dict.fromkeys(("colesevelam",), "colesevelam"),
    **dict.fromkeys(("colestyramine", "cholestyramine"), "colestyramine"),
    **dict.fromkeys(("lomitapide",), "lomitapide"),
    **dict.fromkeys(("evinacumab",), "evinacumab"),
    **dict.fromkeys(("niacin", "nicotinicacid"), "nicotinic acid"),
    # erythropoiesis-stimulating agents, as a dialysis unit writes them (walk-through 56:
    # "Aranesp 40mcg weekly", "darbepoetin 20 mcg fortnightly", "EPO 3000 u tiw",
    # "Binocrit", "Eprex"): the epoetins (alfa, beta, zeta) one answer, darbepoetin and
    # methoxy polyethylene glycol-epoetin beta (Mircera, monthly) each another
    **dict.fromkeys(("epoetin", "epo", "epoetinalfa", "epoetinalpha", "epoetinbeta",
                     "epoetinzeta", "erythropoietin", "rhuepo", "neorecormon", "eporatio",
                     "epoetintheta"), "epoetin"),
    **dict.fromkeys(("darbepoetin", "darbepoetinalfa", "darbepoetinalpha", "darbe",
                     "nesp"), "darbepoetin"),
    **dict.fromkeys(("mircera", "cera", "methoxypolyethyleneglycolepoetinbeta",
                     "pegepoetinbeta"), "methoxy polyethylene glycol-epoetin beta"),
    # antibiotics as a ward writes them (walk-through 60: "Augmentin", "co-amox",
    # "co-amoxiclav 30mg/kg tds"; "Claforan", "cefotax"; "BP/gent", "benpen + gent")
    **dict.fromkeys(("amoxicillin", "amoxycillin", "amox", "amoxil"), "amoxicillin"),
    **dict.fromkeys(("coamoxiclav", "coamox", "augmentin", "amoxiclav",
                     "amoxicillinclavulanate", "amoxicillinclavulanicacid"), "co-amoxiclav"),
    **dict.fromkeys(("ceftriaxone", "rocephin"), "ceftriaxone"),
    **dict.fromkeys(("cefotaxime", "cefotax", "claforan"), "cefotaxime"),
    **dict.fromkeys(("cefalexin", "cephalexin", "keflex"), "cefalexin"),
    **dict.fromkeys(("cefuroxime", "zinacef", "zinnat"), "cefuroxime"),
    **dict.fromkeys(("benzylpenicillin", "benpen", "bp", "penicilling", "peng"),
                    "benzylpenicillin"),
    **dict.fromkeys(("gentamicin", "gentamycin", "gent", "genta", "cidomycin"),
                    "gentamicin"),
    **dict.fromkeys(("flucloxacillin", "fluclox", "floxapen"), "flucloxacillin"),
    **dict.fromkeys(("clarithromycin", "clari", "klaricid"), "clarithromycin"),
    **dict.fromkeys(("azithromycin", "azithro", "zithromax"), "azithromycin"),
    **dict.fromkeys(("metronidazole", "metro", "flagyl"), "metronidazole"),
    **dict.fromkeys(("vancomycin", "vanc", "vanco", "vancocin"), "vancomycin"),
    **dict.fromkeys(("meropenem", "mero", "meronem"), "meropenem"),
    **dict.fromkeys(("piperacillintazobactam", "piptaz", "piptazo", "tazocin"),
                    "piperacillin-tazobactam"),
    **dict.fromkeys(("ciprofloxacin", "cipro", "ciproxin"), "ciprofloxacin"),
    **dict.fromkeys(("trimethoprim",), "trimethoprim"),
    **dict.fromkeys(("nitrofurantoin", "macrobid", "macrodantin"), "nitrofurantoin"),
    # a memory clinic's cognitive enhancers and antipsychotics (walk-through 62: "Aricept",
    # "Donepezil 10mg", "DONEPEZIL 10 MG" were three answers)
    **dict.fromkeys(("donepezil", "aricept"), "donepezil"),
    **dict.fromkeys(("rivastigmine", "exelon", "rivastigminepatch", "exelonpatch",
                     "rivastigminecapsules"), "rivastigmine"),
    **dict.fromkeys(("galantamine", "reminyl", "reminylxl", "galantaminexl", "galantaminemr"),
                    "galantamine"),
    **dict.fromkeys(("memantine", "ebixa", "namenda"), "memantine"),
    **dict.fromkeys(("quetiapine", "seroquel", "quetiapinemr", "seroquelxl"), "quetiapine"),
    **dict.fromkeys(("risperidone", "risperdal"), "risperidone"),
    **dict.fromkeys(("haloperidol", "haldol"), "haloperidol"),
    **dict.fromkeys(("olanzapine", "zyprexa"), "olanzapine"),
    **dict.fromkeys(("aripiprazole", "abilify"), "aripiprazole"),
    # a diabetes clinic's tablets, injectables and insulins (walk-through 64: "Metformin
    # 500mg BD", "MF 1g bd", "metformin MR 1g" beside "Forxiga" and "Ozempic 1mg", 38
    # answers in a treatment column left out as free text)
    **dict.fromkeys(("metformin", "mf", "glucophage", "metforminmr", "metforminsr",
                     "metforminxl", "glucophagesr"), "metformin"),
    **dict.fromkeys(("gliclazide", "diamicron", "gliclazidemr"), "gliclazide"),
    **dict.fromkeys(("glimepiride", "amaryl"), "glimepiride"),
    **dict.fromkeys(("glipizide", "minodiab"), "glipizide"),
    **dict.fromkeys(("pioglitazone", "actos", "pio"), "pioglitazone"),
    **dict.fromkeys(("dapagliflozin", "forxiga", "dapa"), "dapagliflozin"),
    **dict.fromkeys(("empagliflozin", "jardiance", "empa"), "empagliflozin"),
    **dict.fromkeys(("canagliflozin", "invokana", "cana"), "canagliflozin"),
    **dict.fromkeys(("ertugliflozin", "steglatro"), "ertugliflozin"),
    **dict.fromkeys(("sitagliptin", "januvia"), "sitagliptin"),
    **dict.fromkeys(("linagliptin", "trajenta"), "linagliptin"),
    **dict.fromkeys(("alogliptin", "vipidia"), "alogliptin"),
    **dict.fromkeys(("saxagliptin", "onglyza"), "saxagliptin"),
    **dict.fromkeys(("vildagliptin", "galvus"), "vildagliptin"),
    **dict.fromkeys(("semaglutide", "ozempic", "rybelsus", "wegovy"), "semaglutide"),
    **dict.fromkeys(("dulaglutide", "trulicity"), "dulaglutide"),
    **dict.fromkeys(("liraglutide", "victoza", "saxenda"), "liraglutide"),
    **dict.fromkeys(("exenatide", "byetta", "bydureon"), "exenatide"),
    **dict.fromkeys(("lixisenatide", "lyxumia"), "lixisenatide"),
    **dict.fromkeys(("tirzepatide", "mounjaro"), "tirzepatide"),
    **dict.fromkeys(("insulinglargine", "glargine", "lantus", "toujeo", "abasaglar",
                     "semglee"), "insulin glargine"),
    **dict.fromkeys(("insulindetemir", "detemir", "levemir"), "insulin detemir"),
    **dict.fromkeys(("insulindegludec", "degludec", "tresiba"), "insulin degludec"),
    **dict.fromkeys(("insulinaspart", "aspart", "novorapid", "fiasp", "novolog"),
                    "insulin aspart"),
    **dict.fromkeys(("insulinlispro", "lispro", "humalog", "lyumjev", "admelog"),
                    "insulin lispro"),
    **dict.fromkeys(("insulinglulisine", "glulisine", "apidra"), "insulin glulisine"),
    **dict.fromkeys(("isophaneinsulin", "isophane", "humulini", "insulatard", "nph"),
                    "isophane insulin"),
    **dict.fromkeys(("biphasicinsulinaspart", "novomix", "novomix30"),
                    "biphasic insulin aspart"),
    **dict.fromkeys(("biphasicinsulinlispro", "humalogmix", "humalogmix25",
                     "humalogmix50"), "biphasic insulin lispro"),
    **dict.fromkeys(("humulinm3",), "biphasic isophane insulin"),
    **dict.fromkeys(("insulinpump", "csii", "pump", "omnipod", "medtronic780g",
                     "tandem", "t:slim"), "insulin pump"),
    # a rheumatology clinic's conventional, biologic and targeted DMARDs and steroids,
    # by generic name, abbreviation, brand and biosimilar
    **dict.fromkeys(("methotrexate", "mtx", "metoject", "methotrexatesc", "mtxsc",
                     "methotrexateoral", "nordimet", "zlatal"), "methotrexate"),
    **dict.fromkeys(("sulfasalazine", "sulphasalazine", "ssz", "salazopyrin",
                     "salazopyrinen", "salazopyrinentabs"), "sulfasalazine"),
    **dict.fromkeys(("hydroxychloroquine", "hcq", "plaquenil", "quinoric"),
                    "hydroxychloroquine"),
    **dict.fromkeys(("leflunomide", "lef", "arava"), "leflunomide"),
    **dict.fromkeys(("azathioprine", "aza", "imuran"), "azathioprine"),
    **dict.fromkeys(("mycophenolate", "mmf", "cellcept", "mycophenolatemofetil",
                     # walk-through 84's transplant clinic: the enteric-coated sodium
                     # salt (mycophenolic acid) and the generics
                     "myfortic", "mycophenolicacid", "mycophenolatesodium",
                     "ceptava", "arzip"), "mycophenolate"),
    **dict.fromkeys(("adalimumab", "humira", "amgevita", "imraldi", "hyrimoz", "idacio",
                     "yuflyma", "hulio", "biosimilaradalimumab", "adalimumabbiosimilar",
                     "ada"), "adalimumab"),
    **dict.fromkeys(("etanercept", "enbrel", "benepali", "erelzi", "eta", "etn",
                     "biosimilaretanercept"), "etanercept"),
    **dict.fromkeys(("infliximab", "remicade", "inflectra", "remsima", "flixabi", "ifx",
                     "zessly"), "infliximab"),
    **dict.fromkeys(("certolizumab", "certolizumabpegol", "cimzia", "czp"), "certolizumab"),
    **dict.fromkeys(("golimumab", "simponi", "gol"), "golimumab"),
    **dict.fromkeys(("tocilizumab", "roactemra", "actemra", "tcz", "toci"), "tocilizumab"),
    **dict.fromkeys(("sarilumab", "kevzara"), "sarilumab"),
    **dict.fromkeys(("abatacept", "orencia", "aba"), "abatacept"),
    **dict.fromkeys(("rituximab", "mabthera", "truxima", "rixathon", "ruxience", "rtx"),
                    "rituximab"),
    **dict.fromkeys(("baricitinib", "olumiant", "bari"), "baricitinib"),
    **dict.fromkeys(("tofacitinib", "xeljanz", "tofa"), "tofacitinib"),
    **dict.fromkeys(("upadacitinib", "rinvoq", "upa"), "upadacitinib"),
    **dict.fromkeys(("filgotinib", "jyseleca"), "filgotinib"),
    **dict.fromkeys(("secukinumab", "cosentyx"), "secukinumab"),
    **dict.fromkeys(("ixekizumab", "taltz"), "ixekizumab"),
    **dict.fromkeys(("ustekinumab", "stelara"), "ustekinumab"),
    **dict.fromkeys(("guselkumab", "tremfya"), "guselkumab"),
    **dict.fromkeys(("apremilast", "otezla"), "apremilast"),
    **dict.fromkeys(("prednisolone", "pred", "pred.", "prednisone"), "prednisolone"),
    **dict.fromkeys(("methylprednisolone", "depomedrone", "depo-medrone", "medrone",
                     "solumedrol", "solu-medrol", "ivmp"), "methylprednisolone"),
    **dict.fromkeys(("colchicine",), "colchicine"),
    **dict.fromkeys(("allopurinol", "zyloric"), "allopurinol"),
    **dict.fromkeys(("febuxostat", "adenuric"), "febuxostat"),
    # an inflammatory bowel disease clinic's aminosalicylates, thiopurines, steroids and
    # biologics (walk-through 68's "Current medications" was left out as free text)
    **dict.fromkeys(("mesalazine", "mesalamine", "5asa", "5-asa", "asacol", "pentasa",
                     "octasa", "mezavant", "mezavantxl", "salofalk", "lialda", "ipocol",
                     "zintasa"), "mesalazine"),
    **dict.fromkeys(("balsalazide", "colazide"), "balsalazide"),
    **dict.fromkeys(("olsalazine", "dipentum"), "olsalazine"),
    **dict.fromkeys(("mercaptopurine", "6mp", "6-mp", "purinethol", "xaluprine"),
                    "mercaptopurine"),
    **dict.fromkeys(("tioguanine", "thioguanine", "6tg", "6-tg"), "tioguanine"),
    **dict.fromkeys(("budesonide", "entocort", "budenofalk", "cortiment"), "budesonide"),
    **dict.fromkeys(("hydrocortisone", "ivhydrocortisone", "predfoam", "colifoam"),
                    "hydrocortisone"),
    **dict.fromkeys(("vedolizumab", "entyvio", "vedo"), "vedolizumab"),
    **dict.fromkeys(("ust", "ustek"), "ustekinumab"),
    **dict.fromkeys(("risankizumab", "skyrizi", "risa"), "risankizumab"),
    **dict.fromkeys(("mirikizumab", "omvoh"), "mirikizumab"),
    **dict.fromkeys(("ozanimod", "zeposia"), "ozanimod"),
    **dict.fromkeys(("etrasimod", "velsipity"), "etrasimod"),
    **dict.fromkeys(("ciclosporin", "cyclosporin", "cyclosporine", "neoral", "csa",
                     "sandimmun", "capimune", "deximune"), "ciclosporin"),
    # a transplant clinic's induction and maintenance immunosuppression (walk-through 84:
    # "basiliximab" beside "Simulect", "Tac/MMF/Pred" beside "Adoport, CellCept, pred")
    **dict.fromkeys(("tacrolimus", "tac", "tacro", "fk506", "prograf", "adoport",
                     "advagraf", "envarsus", "modigraf", "capexion"), "tacrolimus"),
    **dict.fromkeys(("sirolimus", "rapamune", "rapamycin"), "sirolimus"),
    **dict.fromkeys(("everolimus", "certican", "zortress"), "everolimus"),
    **dict.fromkeys(("belatacept", "nulojix"), "belatacept"),
    **dict.fromkeys(("basiliximab", "simulect"), "basiliximab"),
    **dict.fromkeys(("antithymocyteglobulin", "atg", "thymoglobulin", "thymo", "ratg",
                     "rabbitatg", "grafalon"), "antithymocyte globulin"),
    **dict.fromkeys(("alemtuzumab", "campath", "lemtrada"), "alemtuzumab"),
    **dict.fromkeys(("folicacid", "folate"), "folic acid"),
    # a heart-failure clinic's treatment (walk-through 71: "bisoprolol 5mg od",
    # "Entresto 24/26mg BD", "frusemide 80mg" were 80 answers, the list left out as free
    # text): beta-blockers, ACE inhibitors, ARBs, sacubitril/valsartan, MRAs, SGLT2
    # inhibitors, loop and thiazide diuretics, digoxin, ivabradine, nitrates
    **dict.fromkeys(("bisoprolol", "cardicor", "congescor"), "bisoprolol"),
    **dict.fromkeys(("carvedilol",), "carvedilol"),
    **dict.fromkeys(("nebivolol", "nebilet"), "nebivolol"),
    **dict.fromkeys(("metoprolol", "metoprololsuccinate", "metoprololtartrate",
                     "lopresor", "betaloc"), "metoprolol"),
    **dict.fromkeys(("atenolol", "tenormin"), "atenolol"),
    **dict.fromkeys(("ramipril", "tritace"), "ramipril"),
    **dict.fromkeys(("lisinopril", "zestril"), "lisinopril"),
    **dict.fromkeys(("perindopril", "coversyl"), "perindopril"),
    **dict.fromkeys(("enalapril", "innovace"), "enalapril"),
    **dict.fromkeys(("candesartan", "amias"), "candesartan"),
    **dict.fromkeys(("losartan", "cozaar"), "losartan"),
    **dict.fromkeys(("valsartan", "diovan"), "valsartan"),
    **dict.fromkeys(("irbesartan", "aprovel"), "irbesartan"),
    **dict.fromkeys(("sacubitrilvalsartan", "sacubitril/valsartan", "sacubitril-valsartan",
                     "entresto", "arni"), "sacubitril/valsartan"),
    **dict.fromkeys(("spironolactone", "spiro", "aldactone"), "spironolactone"),
    **dict.fromkeys(("eplerenone", "inspra"), "eplerenone"),
    **dict.fromkeys(("empagliflozin", "jardiance", "empa"), "empagliflozin"),
    **dict.fromkeys(("furosemide", "frusemide", "lasix"), "furosemide"),
    **dict.fromkeys(("bumetanide", "burinex"), "bumetanide"),
    **dict.fromkeys(("torasemide", "torsemide"), "torasemide"),
    **dict.fromkeys(("bendroflumethiazide", "bendroflumethazide", "bfz"),
                    "bendroflumethiazide"),
    **dict.fromkeys(("metolazone",), "metolazone"),
    **dict.fromkeys(("indapamide",), "indapamide"),
    **dict.fromkeys(("digoxin", "lanoxin"), "digoxin"),
    # a cystic fibrosis clinic's CFTR modulators and inhaled treatments (walk-through 82:
    # "Kaftrio (ETI)", "Kaftrio", "ETI" and "elexacaftor-tezacaftor-ivacaftor" were four
    # answers; "Colomycin" and "Colomycin 2MU bd" two)
    **dict.fromkeys(("ivacaftor", "iva", "ivacaftorkalydeco"), "ivacaftor"),
    **dict.fromkeys(("lumacaftor", "lum", "luma"), "lumacaftor"),
    **dict.fromkeys(("tezacaftor", "tez", "teza"), "tezacaftor"),
    **dict.fromkeys(("elexacaftor", "elx", "elexa"), "elexacaftor"),
    **dict.fromkeys(("vanzacaftor", "vanza"), "vanzacaftor"),
    **dict.fromkeys(("deutivacaftor",), "deutivacaftor"),
    **dict.fromkeys(("dornasealfa", "dornasealpha", "dnase", "rhdnase", "pulmozyme"),
                    "dornase alfa"),
    **dict.fromkeys(("colistimethate", "colistimethatesodium", "colistin", "colomycin",
                     "promixin", "colobreathe"), "colistimethate"),
    **dict.fromkeys(("tobramycin", "tobi", "tobipodhaler", "bramitob", "nebtob"),
                    "tobramycin"),
    **dict.fromkeys(("aztreonam", "aztreonamlysine", "cayston"), "aztreonam"),
    # a multiple sclerosis clinic's disease-modifying therapies (walk-through 85:
    # "Ocrevus (ocrelizumab)", "OCREVUS", "ocrelizumab 600mg 6-monthly" and "Ocrelizumab"
    # were four of the 40 answers of a "Current DMT" column left out as free text)
    **dict.fromkeys(("ocrelizumab", "ocrevus", "ocr"), "ocrelizumab"),
    **dict.fromkeys(("ofatumumab", "kesimpta", "arzerra"), "ofatumumab"),
    **dict.fromkeys(("ublituximab", "briumvi"), "ublituximab"),
    **dict.fromkeys(("natalizumab", "tysabri", "ntz", "tyruko"), "natalizumab"),
    # a medical retina clinic's intravitreal anti-VEGF drugs (walk-through 104: "Eylea",
    # "aflibercept 2mg", "Lucentis", "ranibizumab", "Vabysmo" and "faricimab")
    **dict.fromkeys(("aflibercept", "eylea"), "aflibercept"),
    **dict.fromkeys(("ranibizumab", "lucentis", "rbz", "byooviz", "ongavia", "ximluci",
                     "cimerli", "susvimo"), "ranibizumab"),
    **dict.fromkeys(("bevacizumab", "avastin", "bev", "bvz"), "bevacizumab"),
    **dict.fromkeys(("faricimab", "vabysmo"), "faricimab"),
    **dict.fromkeys(("brolucizumab", "beovu"), "brolucizumab"),
    **dict.fromkeys(("dexamethasoneimplant", "ozurdex"), "dexamethasone implant"),
    **dict.fromkeys(("fluocinoloneimplant", "iluvien"), "fluocinolone implant"),
    **dict.fromkeys(("dimethylfumarate", "dmf", "tecfidera", "bg12"), "dimethyl fumarate"),
    **dict.fromkeys(("diroximelfumarate", "vumerity"), "diroximel fumarate"),
    **dict.fromkeys(("glatirameracetate", "glatiramer", "ga", "copaxone", "brabio",
                     "glatopa"), "glatiramer acetate"),
    **dict.fromkeys(("interferonbeta1a", "interferonbeta1alpha", "ifnbeta1a", "ifnb1a",
                     "avonex", "rebif"), "interferon beta-1a"),
    **dict.fromkeys(("peginterferonbeta1a", "peginterferon", "plegridy"),
                    "peginterferon beta-1a"),
    **dict.fromkeys(("interferonbeta1b", "ifnbeta1b", "ifnb1b", "betaferon", "betaseron",
                     "extavia"), "interferon beta-1b"),
    **dict.fromkeys(("teriflunomide", "aubagio"), "teriflunomide"),
    **dict.fromkeys(("fingolimod", "gilenya"), "fingolimod"),
    **dict.fromkeys(("siponimod", "mayzent"), "siponimod"),
    **dict.fromkeys(("ponesimod", "ponvory"), "ponesimod"),
    **dict.fromkeys(("cladribine", "mavenclad"), "cladribine"),
    **dict.fromkeys(("mitoxantrone",), "mitoxantrone"),
    # an epilepsy clinic's anti-seizure medications by generic name, ILAE abbreviation
    # and brand (walk-through 86: "LEV", "keppra", "Keppra 750 bd" and "levetiracetam
    # 500mg bd" among 214 answers of a list left out as free text)
    **dict.fromkeys(("levetiracetam", "lev", "keppra", "desitrend"), "levetiracetam"),
    **dict.fromkeys(("brivaracetam", "brv", "briviact"), "brivaracetam"),
    **dict.fromkeys(("lamotrigine", "ltg", "lamictal"), "lamotrigine"),
    **dict.fromkeys(("valproate", "sodiumvalproate", "valproicacid", "vpa", "epilim",
                     "epilimchrono", "epilimchronosphere", "depakote", "depakine",
                     "episenta", "convulex", "dyzantil", "divalproex"), "valproate"),
    **dict.fromkeys(("carbamazepine", "cbz", "tegretol", "tegretolretard", "carbagen"),
                    "carbamazepine"),
    **dict.fromkeys(("oxcarbazepine", "oxc", "trileptal"), "oxcarbazepine"),
    **dict.fromkeys(("eslicarbazepine", "eslicarbazepineacetate", "esl", "zebinix",
                     "aptiom"), "eslicarbazepine"),
    **dict.fromkeys(("lacosamide", "lcm", "vimpat"), "lacosamide"),
    **dict.fromkeys(("zonisamide", "zns", "zonegran"), "zonisamide"),
    **dict.fromkeys(("topiramate", "tpm", "topamax"), "topiramate"),
    **dict.fromkeys(("perampanel", "per", "pmp", "fycompa"), "perampanel"),
    **dict.fromkeys(("clobazam", "clb", "frisium", "tapclob"), "clobazam"),
    **dict.fromkeys(("clonazepam", "rivotril", "klonopin"), "clonazepam"),
    **dict.fromkeys(("phenytoin", "pht", "epanutin", "dilantin"), "phenytoin"),
    **dict.fromkeys(("phenobarbital", "phenobarbitone", "pb"), "phenobarbital"),
    **dict.fromkeys(("ethosuximide", "esm", "etx", "zarontin"), "ethosuximide"),
    **dict.fromkeys(("cenobamate", "cnb", "ontozry", "xcopri"), "cenobamate"),
    **dict.fromkeys(("gabapentin", "gbp", "neurontin"), "gabapentin"),
    **dict.fromkeys(("pregabalin", "pgb", "lyrica"), "pregabalin"),
    **dict.fromkeys(("cannabidiol", "cbd", "epidyolex", "epidiolex"), "cannabidiol"),
    **dict.fromkeys(("rufinamide", "rfm", "inovelon", "banzel"), "rufinamide"),
    **dict.fromkeys(("stiripentol", "stp", "diacomit"), "stiripentol"),
    **dict.fromkeys(("fenfluramine", "ffa", "fintepla"), "fenfluramine"),
    **dict.fromkeys(("acetazolamide", "diamox"), "acetazolamide"),
    **dict.fromkeys(("primidone", "mysoline"), "primidone"),
    **dict.fromkeys(("ivabradine", "procoralan"), "ivabradine"),
    **dict.fromkeys(("hydralazine",), "hydralazine"),
    **dict.fromkeys(("isosorbidemononitrate", "ismn", "isosorbidedinitrate", "isdn"),
                    "isosorbide nitrate"),
    **dict.fromkeys(("amiodarone",), "amiodarone"),
    **dict.fromkeys(("simvastatin",), "simvastatin"),
    **dict.fromkeys(("rosuvastatin",), "rosuvastatin"),
    **dict.fromkeys(("pravastatin",), "pravastatin"),
    # a pre-operative clinic's regular medicines (walk-through 92: "amlodipine 10mg od",
    # "omeprazole 20mg" and "salbutamol inh prn" kept their doses in the drugs' columns,
    # beside metformin and ramipril by their generic names)
    **dict.fromkeys(("amlodipine", "istin"), "amlodipine"),
    **dict.fromkeys(("nifedipine", "adalat"), "nifedipine"),
    **dict.fromkeys(("felodipine",), "felodipine"),
    **dict.fromkeys(("doxazosin", "cardura"), "doxazosin"),
    **dict.fromkeys(("omeprazole", "losec"), "omeprazole"),
    **dict.fromkeys(("lansoprazole", "zoton"), "lansoprazole"),
    **dict.fromkeys(("esomeprazole", "nexium"), "esomeprazole"),
    **dict.fromkeys(("pantoprazole",), "pantoprazole"),
    **dict.fromkeys(("salbutamol", "ventolin", "albuterol"), "salbutamol"),
    **dict.fromkeys(("fluticasone",), "fluticasone"),
    **dict.fromkeys(("salmeterol", "serevent"), "salmeterol"),
    **dict.fromkeys(("formoterol", "eformoterol"), "formoterol"),
    **dict.fromkeys(("tiotropium", "spiriva"), "tiotropium"),
    **dict.fromkeys(("montelukast", "singulair"), "montelukast"),
    **dict.fromkeys(("tamsulosin", "flomax"), "tamsulosin"),
    **dict.fromkeys(("finasteride",), "finasteride"),
    **dict.fromkeys(("paracetamol", "acetaminophen"), "paracetamol"),
    **dict.fromkeys(("codeine",), "codeine"),
    **dict.fromkeys(("tramadol",), "tramadol"),
    **dict.fromkeys(("morphine", "oramorph", "mst"), "morphine"),
    **dict.fromkeys(("sertraline",), "sertraline"),
    **dict.fromkeys(("citalopram",), "citalopram"),
    **dict.fromkeys(("fluoxetine",), "fluoxetine"),
    **dict.fromkeys(("mirtazapine",), "mirtazapine"),
    **dict.fromkeys(("amitriptyline",), "amitriptyline"),
    **dict.fromkeys(("alendronicacid", "alendronate", "fosamax", "binosto"),
                    "alendronic acid"),
    # walk-through 102's hip-fracture register: bone protection by brand and generic name
    **dict.fromkeys(("risedronate", "risedronicacid", "actonel"), "risedronate"),
    **dict.fromkeys(("ibandronate", "ibandronicacid", "bonviva"), "ibandronic acid"),
    **dict.fromkeys(("zoledronicacid", "zoledronate", "aclasta", "ivzol", "zol",
                     "ivzoledronate", "ivzoledronicacid"), "zoledronic acid"),
    **dict.fromkeys(("denosumab", "prolia"), "denosumab"),
    **dict.fromkeys(("teriparatide", "forsteo", "terrosa", "movymia"), "teriparatide"),
    **dict.fromkeys(("romosozumab", "evenity"), "romosozumab"),
    **dict.fromkeys(("colecalciferol", "cholecalciferol"), "colecalciferol"),
    # ... an oral iron by name, "oral iron" (re-check 106b: "Iron" in an IV iron column
    # read as on IV iron)
    **dict.fromkeys(("ferroussulfate", "ferroussulphate", "ferrousfumarate", "feso4",
                     "oralfeso4", "poiron", "oraliron", "ferrousgluconate"), "oral iron"),
    # a dialysis unit's intravenous irons and phosphate binders, by brand (walk-through
    # 106: "Venofer" beside "iron sucrose", "Renvela" beside "sevelamer", "Phosex" beside
    # "calcium acetate" were each two answers, never offered)
    **dict.fromkeys(("ironsucrose", "venofer", "ivironsucrose", "ivvenofer"), "iron sucrose"),
    **dict.fromkeys(("ferricderisomaltose", "monofer", "ironisomaltoside",
                     "ironisomaltoside1000", "diafer", "ivmonofer"), "ferric derisomaltose"),
    **dict.fromkeys(("ferriccarboxymaltose", "ferinject", "ivferinject"),
                    "ferric carboxymaltose"),
    **dict.fromkeys(("irondextran", "cosmofer"), "iron dextran"),
    **dict.fromkeys(("sevelamer", "sevelamercarbonate", "sevelamerhydrochloride",
                     "sevelamerhcl", "renvela", "renagel"), "sevelamer"),
    **dict.fromkeys(("calciumacetate", "caacetate", "phosex", "phoslo", "renacet"),
                    "calcium acetate"),
    **dict.fromkeys(("calciumcarbonate", "caco3", "calcichew", "adcal"), "calcium carbonate"),
    **dict.fromkeys(("lanthanum", "lanthanumcarbonate", "fosrenol"), "lanthanum carbonate"),
    **dict.fromkeys(("sucroferricoxyhydroxide", "velphoro"), "sucroferric oxyhydroxide"),
    **dict.fromkeys(("ferriccitrate", "auryxia"), "ferric citrate"),
    # a psoriasis clinic's systemic treatments and phototherapy (walk-through 93: "PUVA,
    # MTX", "fumaderm; MTX", "NBUVB x2 courses" were 12 unordered answers)
    **dict.fromkeys(("acitretin", "neotigason"), "acitretin"),
    **dict.fromkeys(("skilarence",), "dimethyl fumarate"),
    **dict.fromkeys(("fumaderm", "fumaricacidesters", "fae"), "fumaric acid esters"),
    **dict.fromkeys(("puva", "oralpuva", "bathpuva"), "PUVA"),
    **dict.fromkeys(("nbuvb", "narrowbanduvb", "nbuvbphototherapy", "uvb", "tl01"),
                    "NB-UVB"),
    # walk-through 95's breast clinic: endocrine therapy, anti-HER2 drugs and the
    # chemotherapy drugs of its regimens, by generic name, brand and common misspelling
    **dict.fromkeys(("tamoxifen", "tam", "tamox", "nolvadex", "tamoxifan", "tamoxifene",
                     "tamoxiphen"), "tamoxifen"),
    **dict.fromkeys(("anastrozole", "arimidex", "anastrazole", "anastrozol"),
                    "anastrozole"),
    **dict.fromkeys(("letrozole", "femara", "letrazole", "letrozol"), "letrozole"),
    **dict.fromkeys(("exemestane", "aromasin", "exemestan"), "exemestane"),
    **dict.fromkeys(("fulvestrant", "faslodex"), "fulvestrant"),
    **dict.fromkeys(("goserelin", "zoladex"), "goserelin"),
    **dict.fromkeys(("leuprorelin", "prostap", "leuprolide", "lupron"), "leuprorelin"),
    **dict.fromkeys(("trastuzumab", "herceptin", "herceptinsc", "kanjinti", "ontruzant",
                     "herzuma", "trazimera", "zercepac"), "trastuzumab"),
    **dict.fromkeys(("pertuzumab", "perjeta"), "pertuzumab"),
    **dict.fromkeys(("trastuzumabemtansine", "tdm1", "t-dm1", "kadcyla"),
                    "trastuzumab emtansine"),
    **dict.fromkeys(("trastuzumabderuxtecan", "tdxd", "t-dxd", "enhertu"),
                    "trastuzumab deruxtecan"),
    **dict.fromkeys(("palbociclib", "ibrance"), "palbociclib"),
    **dict.fromkeys(("ribociclib", "kisqali"), "ribociclib"),
    **dict.fromkeys(("abemaciclib", "verzenios"), "abemaciclib"),
    **dict.fromkeys(("olaparib", "lynparza"), "olaparib"),
    **dict.fromkeys(("capecitabine", "xeloda", "cape"), "capecitabine"),
    **dict.fromkeys(("docetaxel", "taxotere"), "docetaxel"),
    **dict.fromkeys(("paclitaxel", "taxol", "weeklypaclitaxel"), "paclitaxel"),
    **dict.fromkeys(("epirubicin",), "epirubicin"),
    **dict.fromkeys(("doxorubicin", "adriamycin"), "doxorubicin"),
    **dict.fromkeys(("cyclophosphamide",), "cyclophosphamide"),
    **dict.fromkeys(("carboplatin", "carbo"), "carboplatin"),
    # walk-through 105's chemotherapy day unit: the drugs of its regimens, by their
    # abbreviations ("carbo/pac", "cis/etop", "gem/cape") and brands ("Keytruda")
    **dict.fromkeys(("pac", "pacli"), "paclitaxel"),
    **dict.fromkeys(("cisplatin", "cis", "cddp"), "cisplatin"),
    **dict.fromkeys(("etoposide", "etop", "vp16", "vp-16"), "etoposide"),
    **dict.fromkeys(("oxaliplatin", "oxali", "eloxatin"), "oxaliplatin"),
    **dict.fromkeys(("fluorouracil", "5fu", "5-fu", "5fluorouracil"), "fluorouracil"),
    **dict.fromkeys(("folinicacid", "leucovorin", "calciumfolinate", "lv"), "folinic acid"),
    **dict.fromkeys(("irinotecan", "irino", "campto"), "irinotecan"),
    **dict.fromkeys(("gemcitabine", "gem", "gemzar"), "gemcitabine"),
    **dict.fromkeys(("pemetrexed", "alimta"), "pemetrexed"),
    **dict.fromkeys(("cabazitaxel", "jevtana"), "cabazitaxel"),
    **dict.fromkeys(("vinorelbine", "navelbine"), "vinorelbine"),
    **dict.fromkeys(("pembrolizumab", "pembro", "keytruda"), "pembrolizumab"),
    **dict.fromkeys(("nivolumab", "nivo", "opdivo"), "nivolumab"),
    **dict.fromkeys(("ipilimumab", "ipi", "yervoy"), "ipilimumab"),
    **dict.fromkeys(("atezolizumab", "atezo", "tecentriq"), "atezolizumab"),
    **dict.fromkeys(("durvalumab", "durva", "imfinzi"), "durvalumab"),
    **dict.fromkeys(("bevacizumabiv",), "bevacizumab"),
    # ... and its granulocyte colony-stimulating factors
    **dict.fromkeys(("filgrastim", "zarzio", "nivestim", "neupogen", "accofil", "grastofil"),
                    "filgrastim"),
    **dict.fromkeys(("pegfilgrastim", "neulasta", "pelgraz", "pelmeg", "ziextenzo",
                     "fulphila", "udenyca"), "pegfilgrastim"),
    **dict.fromkeys(("lenograstim", "granocyte"), "lenograstim"),
    **dict.fromkeys(("lipegfilgrastim", "lonquex"), "lipegfilgrastim"),
    # walk-through 97's movement-disorders clinic: Parkinson's disease drugs by brand and
    # misspelling (levodopa's combinations are in _COMBINATIONS), and an essential
    # tremor's
    **dict.fromkeys(("levodopa", "l-dopa", "ldopa"), "levodopa"),
    **dict.fromkeys(("carbidopa",), "carbidopa"),
    **dict.fromkeys(("benserazide",), "benserazide"),
    **dict.fromkeys(("ropinirole", "requip", "requipxl", "ropinerole", "ropinirolexl",
                     "ropiniroleer", "ropiniroleprolongedrelease", "ropinirol", "ipinnia"),
                    "ropinirole"),
    **dict.fromkeys(("pramipexole", "mirapexin", "mirapex", "pramipexolepr", "pramipexol",
                     "pramiprexole", "pramipexoleer", "pramipexoleprolongedrelease"),
                    "pramipexole"),
    **dict.fromkeys(("rotigotine", "neupro", "neupropatch", "rotigotinepatch"),
                    "rotigotine"),
    **dict.fromkeys(("rasagiline", "azilect", "rasagaline", "rasageline"), "rasagiline"),
    **dict.fromkeys(("selegiline", "eldepryl", "zelapar", "selegeline"), "selegiline"),
    **dict.fromkeys(("safinamide", "xadago"), "safinamide"),
    **dict.fromkeys(("amantadine", "symmetrel", "lysovir", "amantidine"), "amantadine"),
    **dict.fromkeys(("entacapone", "comtess", "comtan", "entacapon"), "entacapone"),
    **dict.fromkeys(("opicapone", "ongentys"), "opicapone"),
    **dict.fromkeys(("tolcapone", "tasmar"), "tolcapone"),
    **dict.fromkeys(("apomorphine", "apo-go", "apogo", "apokyn", "apomorphinepump",
                     "apomorphineinfusion", "apomorphinepen"), "apomorphine"),
    **dict.fromkeys(("duodopa", "duodopapump", "lcig", "levodopa-carbidopaintestinalgel",
                     "levodopacarbidopaintestinalgel", "produodopa"),
                    "levodopa-carbidopa intestinal gel"),
    **dict.fromkeys(("primidone", "mysoline"), "primidone"),
    **dict.fromkeys(("rivastigmine", "exelon"), "rivastigmine"),
    **dict.fromkeys(("quetiapine", "seroquel"), "quetiapine"),
    # ... and the treatments of its other symptoms: orthostatic hypotension, nausea,
    # sleep, constipation
    **dict.fromkeys(("midodrine", "bramox"), "midodrine"),
    **dict.fromkeys(("fludrocortisone", "florinef"), "fludrocortisone"),
    **dict.fromkeys(("domperidone", "motilium"), "domperidone"),
    **dict.fromkeys(("metoclopramide", "maxolon", "reglan"), "metoclopramide"),
    **dict.fromkeys(("melatonin", "circadin", "slenyto"), "melatonin"),
    **dict.fromkeys(("macrogol", "laxido", "movicol", "cosmocol", "macrogols"), "macrogol"),
    # an intensive care unit's vasopressors and inotropes (walk-through 101's "norad +
    # vaso", "norepinephrine 0.16", "NA 0.29 + vasopressin": 40 answers, left out whole)
    **dict.fromkeys(("noradrenaline", "norepinephrine", "norad", "noradr", "levophed",
                     "noradrenalin", "norepi"), "noradrenaline"),
    **dict.fromkeys(("adrenaline", "epinephrine", "adrenalin", "adr", "epi"), "adrenaline"),
    **dict.fromkeys(("vasopressin", "vaso", "avp", "argipressin", "pitressin"),
                    "vasopressin"),
    **dict.fromkeys(("terlipressin", "glypressin"), "terlipressin"),
    **dict.fromkeys(("dobutamine", "dobut", "dobs"), "dobutamine"),
    **dict.fromkeys(("dopamine",), "dopamine"),
    **dict.fromkeys(("milrinone", "primacor"), "milrinone"),
    **dict.fromkeys(("levosimendan", "simdax"), "levosimendan"),
    **dict.fromkeys(("metaraminol", "aramine"), "metaraminol"),
    **dict.fromkeys(("phenylephrine",), "phenylephrine"),
    **dict.fromkeys(("angiotensinii", "giapreza"), "angiotensin II"),
}
#: A column of vasopressors and inotropes: read as the drugs given, however few of its
#: cells list two (walk-through 101's 60-row export kept every dose an answer apart).
VASOACTIVE_COLUMN = re.compile(r"vasopressor|\bpressors?\b|inotrop|vasoactive",
                               re.IGNORECASE)
#: Abbreviations read as a drug only with a dose after them: "NA 0.29" is noradrenaline,
#: a bare "NA" a gap.
_DOSED_ONLY: dict[str, str] = {"na": "noradrenaline"}
#: Brand names and the short names of fixed-dose combinations: the drugs they hold.
#: Chemotherapy regimens by their acronyms (walk-through 105: CAPOX and XELOX were two
#: answers; FOLFIRI was offered as FOLFIRINOX); a modified schedule ("mFOLFOX6") is the
#: same drugs. A merged answer is shown by its acronym (:func:`regimen_label`), as an
#: oncologist names it, not as its four drugs.
_REGIMEN_ACRONYMS: dict[str, tuple[str, ...]] = {
    **{k: ("fluorouracil", "folinic acid", "oxaliplatin")
       for k in ("folfox", "folfox4", "folfox6", "mfolfox6", "mfolfox", "oxmdg")},
    **{k: ("fluorouracil", "folinic acid", "irinotecan")
       for k in ("folfiri", "mfolfiri", "irmdg")},
    **{k: ("fluorouracil", "folinic acid", "irinotecan", "oxaliplatin")
       for k in ("folfirinox", "mfolfirinox", "folfoxiri")},
    **{k: ("capecitabine", "oxaliplatin") for k in ("capox", "xelox", "capeox")},
    **{k: ("capecitabine", "irinotecan") for k in ("capiri", "xeliri")},
    **{k: ("gemcitabine", "capecitabine") for k in ("gemcap", "gemcape")},
    **{k: ("fluorouracil", "epirubicin", "cyclophosphamide")
       for k in ("fec", "fec100", "fec-100", "fec75")},
    "ec": ("epirubicin", "cyclophosphamide"), "ac": ("doxorubicin", "cyclophosphamide"),
    "tc": ("docetaxel", "cyclophosphamide"),
    "ecf": ("epirubicin", "cisplatin", "fluorouracil"),
    "ecx": ("epirubicin", "cisplatin", "capecitabine"),
    "eox": ("epirubicin", "oxaliplatin", "capecitabine"),
    "flot": ("fluorouracil", "folinic acid", "oxaliplatin", "docetaxel"),
}


_COMBINATIONS: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in {
    # a diabetes clinic's fixed-dose tablets
    "janumet": ("sitagliptin", "metformin"), "synjardy": ("empagliflozin", "metformin"),
    "xigduo": ("dapagliflozin", "metformin"), "jentadueto": ("linagliptin", "metformin"),
    "eucreas": ("vildagliptin", "metformin"), "vipdomet": ("alogliptin", "metformin"),
    "competact": ("pioglitazone", "metformin"), "xultophy": ("insulin degludec",
                                                             "liraglutide"),
    # a breast clinic's subcutaneous anti-HER2 pair
    "phesgo": ("pertuzumab", "trastuzumab"),
    **_REGIMEN_ACRONYMS,
    **{k: ("carboplatin", "paclitaxel") for k in ("carbotaxol", "carbopaclitaxel")},
    "biktarvy": ("bictegravir", "emtricitabine", _TAF),
    "b/f/taf": ("bictegravir", "emtricitabine", _TAF),
    "truvada": (_TDF, "emtricitabine"),
    "descovy": ("emtricitabine", _TAF),
    "atripla": ("efavirenz", "emtricitabine", _TDF),
    "triumeq": ("abacavir", "lamivudine", "dolutegravir"),
    "dovato": ("dolutegravir", "lamivudine"),
    "juluca": ("dolutegravir", "rilpivirine"),
    "tld": (_TDF, "lamivudine", "dolutegravir"),
    "tle": (_TDF, "lamivudine", "efavirenz"),
    "combivir": ("zidovudine", "lamivudine"),
    "kivexa": ("abacavir", "lamivudine"),
    "epzicom": ("abacavir", "lamivudine"),
    "trizivir": ("abacavir", "zidovudine", "lamivudine"),
    "genvoya": ("elvitegravir", "cobicistat", "emtricitabine", _TAF),
    "e/c/f/taf": ("elvitegravir", "cobicistat", "emtricitabine", _TAF),
    "stribild": ("elvitegravir", "cobicistat", "emtricitabine", _TDF),
    "e/c/f/tdf": ("elvitegravir", "cobicistat", "emtricitabine", _TDF),
    "odefsey": ("rilpivirine", "emtricitabine", _TAF),
    "complera": ("rilpivirine", "emtricitabine", _TDF),
    "eviplera": ("rilpivirine", "emtricitabine", _TDF),
    "symtuza": ("darunavir", "cobicistat", "emtricitabine", _TAF),
    "delstrigo": ("doravirine", "lamivudine", _TDF),
    "symfi": ("efavirenz", "lamivudine", _TDF),
    "cimduo": ("lamivudine", _TDF),
    "kaletra": ("lopinavir", "ritonavir"),
    "lpv/r": ("lopinavir", "ritonavir"),
    "drv/r": ("darunavir", "ritonavir"),
    "atv/r": ("atazanavir", "ritonavir"),
    "prezcobix": ("darunavir", "cobicistat"),
    "rezolsta": ("darunavir", "cobicistat"),
    "evotaz": ("atazanavir", "cobicistat"),
    "cabenuva": ("cabotegravir", "rilpivirine"),
    "prezista": ("darunavir",), "isentress": ("raltegravir",), "tivicay": ("dolutegravir",),
    "sustiva": ("efavirenz",), "stocrin": ("efavirenz",), "viread": (_TDF,),
    "emtriva": ("emtricitabine",), "epivir": ("lamivudine",), "ziagen": ("abacavir",),
    "retrovir": ("zidovudine",), "viramune": ("nevirapine",), "edurant": ("rilpivirine",),
    "norvir": ("ritonavir",), "reyataz": ("atazanavir",), "pifeltro": ("doravirine",),
    "vocabria": ("cabotegravir",), "intelence": ("etravirine",),
    "seretide": ("fluticasone", "salmeterol"), "symbicort": ("budesonide", "formoterol"),
    "cocodamol": ("codeine", "paracetamol"), "co-codamol": ("codeine", "paracetamol"),
    "eliquis": ("apixaban",), "xarelto": ("rivaroxaban",), "pradaxa": ("dabigatran",),
    "lixiana": ("edoxaban",), "savaysa": ("edoxaban",), "coumadin": ("warfarin",),
    "jantoven": ("warfarin",), "marevan": ("warfarin",), "lovenox": ("enoxaparin",),
    "clexane": ("enoxaparin",), "plavix": ("clopidogrel",), "brilinta": ("ticagrelor",),
    "neo-mercazole": ("carbimazole",), "neomercazole": ("carbimazole",),
    "tapazole": ("methimazole",), "eltroxin": ("levothyroxine",),
    "synthroid": ("levothyroxine",), "levoxyl": ("levothyroxine",),
    "euthyrox": ("levothyroxine",), "tirosint": ("levothyroxine",),
    "unithroid": ("levothyroxine",), "cytomel": ("liothyronine",), "inderal": ("propranolol",),
    # block and replace: an antithyroid drug with levothyroxine (carbimazole in the UK)
    "blockandreplace": ("carbimazole", "levothyroxine"),
    "b&r": ("carbimazole", "levothyroxine"),
    "brilique": ("ticagrelor",), "effient": ("prasugrel",), "persantine": ("dipyridamole",),
    "aggrenox": ("aspirin", "dipyridamole"), "asasantin": ("aspirin", "dipyridamole"),
    "actilyse": ("alteplase",), "activase": ("alteplase",), "tnkase": ("tenecteplase",),
    "metalyse": ("tenecteplase",), "lipitor": ("atorvastatin",), "zocor": ("simvastatin",),
    "crestor": ("rosuvastatin",), "pravachol": ("pravastatin",), "dapt": ("aspirin",
                                                                          "clopidogrel"),
    "lescol": ("fluvastatin",), "livalo": ("pitavastatin",), "livazo": ("pitavastatin",),
    "ezetrol": ("ezetimibe",), "zetia": ("ezetimibe",), "inegy": ("simvastatin", "ezetimibe"),
    "vytorin": ("simvastatin", "ezetimibe"), "atozet": ("atorvastatin", "ezetimibe"),
    "roszet": ("rosuvastatin", "ezetimibe"), "repatha": ("evolocumab",),
    "praluent": ("alirocumab",), "leqvio": ("inclisiran",), "nilemdo": ("bempedoic acid",),
    "nexletol": ("bempedoic acid",), "nustendi": ("bempedoic acid", "ezetimibe"),
    "nexlizet": ("bempedoic acid", "ezetimibe"), "lipantil": ("fenofibrate",),
    "supralip": ("fenofibrate",), "tricor": ("fenofibrate",), "bezalip": ("bezafibrate",),
    "lopid": ("gemfibrozil",), "vazkepa": ("icosapent ethyl",), "vascepa": ("icosapent ethyl",),
    "questran": ("colestyramine",), "cholestagel": ("colesevelam",), "welchol": ("colesevelam",),
    "lojuxta": ("lomitapide",), "evkeeza": ("evinacumab",),
    "pip/taz": ("piperacillin-tazobactam",), "pip-taz": ("piperacillin-tazobactam",),
    # CFTR modulators by brand and short name (Kaftrio is taken with an evening
    # ivacaftor tablet: "Kaftrio + Kalydeco" names the same three drugs)
    "kalydeco": ("ivacaftor",), "orkambi": ("lumacaftor", "ivacaftor"),
    "symkevi": ("tezacaftor", "ivacaftor"), "symdeko": ("tezacaftor", "ivacaftor"),
    "kaftrio": ("elexacaftor", "tezacaftor", "ivacaftor"),
    "trikafta": ("elexacaftor", "tezacaftor", "ivacaftor"),
    "eti": ("elexacaftor", "tezacaftor", "ivacaftor"),
    "elx/tez/iva": ("elexacaftor", "tezacaftor", "ivacaftor"),
    "alyftrek": ("vanzacaftor", "tezacaftor", "deutivacaftor"),
    "aranesp": ("darbepoetin",), "eprex": ("epoetin",), "epogen": ("epoetin",),
    "procrit": ("epoetin",), "binocrit": ("epoetin",), "retacrit": ("epoetin",),
    "neorecormon": ("epoetin",), "abseamed": ("epoetin",), "silapo": ("epoetin",),
    # levodopa with carbidopa (co-careldopa), with benserazide (co-beneldopa), and with
    # entacapone too (walk-through 97: "Sinemet Plus", "Madopar CR", "madapor", "Stalevo")
    **dict.fromkeys(("sinemet", "sinemetplus", "sinemetcr", "sinamet", "sinametcr",
                     "sinemetcontrolledrelease", "co-careldopa", "cocareldopa", "caramet",
                     "lecado", "levodopa/carbidopa", "carbidopa/levodopa",
                     "levodopacarbidopa", "carbidopalevodopa", "rytary"),
                    ("levodopa", "carbidopa")),
    **dict.fromkeys(("madopar", "madoparcr", "madopardispersible", "madoparhbs", "madapor",
                     "madapar", "co-beneldopa", "cobeneldopa", "levodopa/benserazide",
                     "levodopabenserazide"), ("levodopa", "benserazide")),
    **dict.fromkeys(("stalevo", "sastravi"), ("levodopa", "carbidopa", "entacapone")),
}.items()}
#: An answer saying the patient takes none of the column's drugs: "none", "nil", "no".
_NO_DRUG = frozenset({"none", "nil", "no", "n", "not on any", "no anticoagulant",
                      "no anticoagulation", "not anticoagulated", "no antiplatelet",
                      "no esa", "not on esa", "no epo", "not on epo", "no abx",
                      "nil abx", "no antibiotics", "not on antibiotics", "none given",
                      "no dmt", "nil dmt", "not on dmt", "no dmts", "not on a dmt",
                      "untreated", "treatment naive", "treatment-naive", "dmt naive",
                      "dmt-naive", "naive", "no asm", "no asms", "no aed", "no aeds",
                      "not on asm", "not on asms", "off asms", "off medication",
                      "no binder", "no binders", "nil binder", "not on binders",
                      "not on a binder", "no iron", "not on iron", "no iv iron",
                      "not required"})
#: A dose and how often after a drug's name: "apixaban 5mg bd", "warfarin 3 mg od",
#: "enoxaparin 40 mg sc daily" (bounded runs: no backtracking on a hostile cell).
_DOSE = re.compile(r" ?\d{1,5}(?:\.\d{1,3})? ?(?:mg|micrograms?|mcg|µg|ug|g|units?|iu|u|ml|mu|miu|"
                   r"million units?)\b"
                   r"[a-z0-9 ./]{0,40}(?:-week(?:ly)?[a-z0-9 ./]{0,20})?$")
#: How often, with a slash: "3x/wk", "1/7", "2/52", "once/day".
_PER_TIME = re.compile(r"/ ?(?:wk|wks|week|weeks|day|days|d|7|52|12|month|months|mo|"
                       r"24 ?h|24 ?hrs?|24 ?hours)\b")
#: A dose anywhere in an answer: "ocrelizumab 600mg 6-monthly", "2.5 mg".
_A_DOSE = re.compile(r"\d(?:\.\d{1,3})? ?(?:mg|micrograms?|mcg|µg|ug|g|units?|iu|u|ml|mu|miu|"
                     r"million units?)\b")
#: A dose written without its unit after a drug's name: "Exelon patch 4.6".
_BARE_DOSE = re.compile(r" \d{1,4}(?:\.\d{1,2})?$")
#: A dose without its unit before how often it is taken: "Eliquis 2.5 bd", "dabigatran 150
#: BD", "aspirin 75 od" (walk-through 87: read as undosed, the reduced dose was merged by
#: default into the drug's plain name).
#: How often, as one word per number of doses a day ("bd", "bid", "twice daily": 2).
_OFTEN = {"od": "1/d", "daily": "1/d", "once daily": "1/d", "bd": "2/d", "bid": "2/d",
          "twice daily": "2/d", "tds": "3/d", "tid": "3/d", "qds": "4/d", "qid": "4/d",
          "nocte": "night", "on": "night", "mane": "morning", "om": "morning", "prn": "prn"}
_OFTEN_WORDS = "(?:" + "|".join(sorted(_OFTEN, key=len, reverse=True)) + ")"
_BARE_DOSE_OFTEN = re.compile(r" \d{1,4}(?:\.\d{1,2})? " + _OFTEN_WORDS + "$")
#: The numbers of a dose: with a unit anywhere, or bare at the end or before how often.
_DOSE_NUMBER = re.compile(r"(\d{1,5}(?:\.\d{1,3})?) ?(?:mg|micrograms?|mcg|µg|ug|g|units?|iu|u|"
                          r"ml|mu|miu|million units?)\b|(?<= )(\d{1,4}(?:\.\d{1,2})?)(?= "
                          + _OFTEN_WORDS + "$|$)")
#: A dose per kilogram, "30mg/kg" (a child's): no combination.
_PER_KG = re.compile(r"/ ?kg\b")
#: Where an answer splits into its drugs: "/", "+", ",", ";", "&", "and", "with", "plus"; a
#: sequence of drugs taken one after another, "->" or "then" (a list of previous ones).
_SPLIT = re.compile(r" ?(?:->|→|[/+,;&]|\band\b|\bwith\b|\bplus\b|\bthen\b) ?")
#: Where a sequence of drugs taken one after another moves on: "->", "→", "then".
_SEQUENCE = re.compile(r"->|→|\bthen\b")
#: A route or form written with a slash: "s/c", "i/v", "m/r".
_ROUTE_SLASH = re.compile(r"\b([simp])/([cvmro])\b")
#: A rate written with a slash after a dose: "20mg/wk", "5mg/day".
_RATE_SLASH = re.compile(r"(?<=[a-z0-9])\s?/\s?(wk|wks|week|weeks|day|days|d|month|mo|hr|hrs|h|"
                         r"hour|min|mins|minute)\b")
#: The strengths of a fixed-dose tablet's drugs: " 50/1000", " 200/245 mg".
_STRENGTHS = re.compile(r"(?<=[a-z]) \d{1,4}(?:\.\d{1,2})?/\d{1,4}(?:\.\d{1,2})?(?: ?mg)?(?= |$)")
#: Answers this long are free text, not a regimen.
_MAX_LENGTH = 120


#: How often, how and when after a drug's name: "Levemir bd", "NovoRapid sliding scale",
#: "metformin MR", "insulin pump (Omnipod)", "CSII - Medtronic 780G" (walk-through 64).
_TAIL = re.compile(r" (?:od|bd|bid|tds|tid|qds|qid|nocte|mane|on|om|prn|daily|weekly|"
                   r"once weekly|sc|s/c|sub ?cut|subcut|po|oral|im|iv|ss|sliding scale|"
                   r"mr|sr|xl|m/r|s/r|tabs?|tablets?|pen|injection|inj|infusion|"
                   # walk-through 97: "apomorphine pump", "Neupro patch", "Madopar CR"
                   r"pump|patch|cr|pr|dispersible|prolonged release|modified release|"
                   r"\d{1,2} ?x(?: per (?:day|d))?|with each dose|\d{1,2} ?h(?:rs?|ours?)?|"
                   r"\d{1,2} sachets?|"
                   r"every (?:2|two|4|four|8|eight) weeks|fortnightly|monthly|eow|"
                   # walk-through 106's ESAs: "darbepoetin 40 every 2 wks", "100 wkly",
                   # "NeoRecormon 2000 TIW", "Aranesp ?dose"
                   r"every \d{1,2} (?:wks?|weeks?|days?|months?|mths?)|wkly|tiw|biw|"
                   r"\?\s?dose|dose\s?\?|dose unknown|dose not known|"
                   r"q2w|q4w|q8w|per wk|per week|a week|weekly sc|x ?\d|"
                   # walk-through 85: natalizumab's extended or standard interval dosing
                   # ("natalizumab EID 6-weekly"), "6-monthly", "biosimilar"
                   r"eid|sid|\d{1,2}[ -]?(?:monthly|mthly)|biosimilar|"
                   # walk-through 68: "8-weekly", "8 wkly", "q8w", "supp", a steroid's
                   # taper ("reducing", "tapering 5mg/wk")
                   r"\d{1,2}[ -]?(?:weekly|wkly)|q\d{1,2}w|\d (?:tabs?|caps?)|supps?|"
                   r"suppositor(?:y|ies)|enemas?|foam|granules|"
                   r"reducing|taper(?:ing)?(?: [0-9.]{1,4} ?mg(?: per wk| ?/wk)?)?|"
                   r"with meals|at night|in the morning|\([^()]{1,30}\)|- [a-z0-9 ]{1,30}|"
                   # an inhaler's route and puffs: "salbutamol inh prn", "ventolin 2 puffs"
                   # (walk-through 92)
                   r"inh|inhaled|inhaler|neb|nebs|nebuli[sz]ed|\d{1,2} ?puffs?|puffs?|"
                   r"as required|as needed|courses?|x ?\d{1,2} courses?|"
                   # how long, "trastuzumab 1 yr", "tamoxifen x 5 years" (walk-through 95)
                   r"(?:for |x ?)?\d{1,2} ?(?:yrs?|years?|months?|mths?|cycles?)|"
                   r"x ?\d{1,2} cycles?)$")


def _part_drugs(part: str) -> frozenset[str] | None:
    key = part.replace(" ", "").replace("-", "")
    if key in _COMBINATIONS:
        return _COMBINATIONS[key]
    if key in _DRUGS:
        return frozenset({_DRUGS[key]})
    if len(part) > 80:
        return None
    bare = _DOSE.sub("", part)
    if bare == part:  # a frequency or a form after the name: "Levemir bd"; two of them,
        for _ in range(3):  # "salbutamol inh prn"
            shorter = _TAIL.sub("", bare)
            if shorter == bare:
                break
            bare = shorter
    if bare == part:  # a dose without its unit: "Exelon patch 4.6" (walk-through 62)
        bare = _BARE_DOSE.sub("", part)
    if bare == part and "-" in part:
        # generic names joined by hyphens, "elexacaftor-tezacaftor-ivacaftor" (walk-
        # through 82), each a drug of its own ("co-amoxiclav" is one name, read above)
        pieces = [_DRUGS.get(p.strip()) for p in part.split("-")]
        return frozenset(pieces) if len(pieces) >= 2 and all(
            p is not None and len(p) > 3 for p in pieces) else None
    if bare != part and bare.strip() in _DOSED_ONLY:
        return frozenset({_DOSED_ONLY[bare.strip()]})
    return _part_drugs(bare.strip()) if bare != part and bare.strip() else None


def generic_name(name: str) -> str | None:
    """The generic name of the one drug a name is (a generic name, an abbreviation or a
    brand: "Herceptin" is trastuzumab), or ``None``.

    Examples
    --------
    >>> generic_name("Herceptin"), generic_name("Trastuzumab"), generic_name("Outcome")
    ('trastuzumab', 'trastuzumab', None)
    """
    return _DRUGS.get(norm_key(name).replace(" ", "").replace("-", ""))


def names_of(drug: str) -> tuple[str, ...]:
    """The keys this module reads as ``drug`` alone (its generic name, abbreviations and
    brands, as :func:`norm_key` writes them without spaces): "vancomycin", "vanc",
    "vancocin"."""
    return (tuple(k for k, g in _DRUGS.items() if g == drug)
            + tuple(k for k, held in _COMBINATIONS.items() if held == frozenset({drug})))


def brand_or_dose(answer: str) -> bool:
    """Whether an answer names a drug by a brand ("Coumadin") or with its dose
    ("apixaban 5mg bd"): a merged answer is shown by its generic name instead
    (walk-through 40 read "Apixaban 5mg bd: 1" among the look-alikes)."""
    key = norm_key(answer)
    if not key or len(key) > _MAX_LENGTH:
        return False
    bare = key.replace(" ", "").replace("-", "")
    if bare in _DRUGS:  # a brand or an abbreviation ("Aricept"), not the generic name
        return _DRUGS[bare].replace(" ", "").replace("-", "") != bare
    if bare in _COMBINATIONS and len(_COMBINATIONS[bare]) == 1:
        return True
    # a dose, with its unit or bare after the name ("rivastigmine 4.6", walk-through 63)
    return (_DOSE.search(key) is not None or _BARE_DOSE.search(key) is not None
            or _BARE_DOSE_OFTEN.search(key) is not None) and drug_set(key) is not None


def drug_set(answer: str) -> frozenset[str] | None:
    """The drugs an answer names (``None`` when a part is no drug known here)."""
    key = norm_key(answer)
    if not key or len(key) > _MAX_LENGTH:
        return None
    if key in _NO_DRUG:  # "None", "nil" and "No": one answer, no drug
        return frozenset({"(no drug)"})
    if key.replace(" ", "") in _SEQUENCE_NAMES:  # "FEC-T": FEC, then docetaxel
        return drug_set(_SEQUENCE_NAMES[key.replace(" ", "")])
    if key.replace(" ", "") in _COMBINATIONS:  # "B/F/TAF", "DRV/r": one name
        return _COMBINATIONS[key.replace(" ", "")]
    # a brand with its drugs in brackets, "Symkevi (tez/iva)": the brand's, when the
    # brackets name the same drugs or none known here
    named = re.fullmatch(r"(.{1,60}?) ?\(([^()]{1,40})\)", key)
    if named is not None:  # ... or a note in them: "Tysabri (JCV+ switched)"
        outer, inner = drug_set(named.group(1)), drug_set(named.group(2))
        if outer is not None and (inner is None or inner == outer):
            return outer
    # a route or a rate with a slash is no second drug: "MTX 15mg/wk s/c" (the "c" of
    # "s/c" read as cobicistat), "20mg/wk"; nor does it end the answer ("mtx 25 mg po
    # weekly and Sulphasalazine 2g/day" lost its second drug as one dose)
    key = _ROUTE_SLASH.sub(lambda m: m.group(1) + m.group(2), key)
    # a brand whose name holds a word that splits drugs: "Sinemet Plus" (walk-through 97)
    key = re.sub(r"\bsinemet plus\b", "sinemetplus", key)
    # ... or how often that does: "entacapone 200mg with each dose"
    key = re.sub(r" ?\bwith (?:each|every) (?:levodopa )?dose\b", "", key)
    key = _RATE_SLASH.sub(r" per \1", key)
    # a dose per kilogram in a list: "infliximab 5mg/kg 8-weekly" (walk-through 68)
    key = re.sub(r"(?<=[a-z0-9])\s?/\s?kg\b", " per kg", key)
    # ... and per square metre of body surface, a chemotherapy's ("docetaxel 75mg/m2")
    key = re.sub(r"(?<=[a-z0-9])\s?/\s?m(?:2|²)(?![a-z0-9])", " per m2", key)
    # a dose whose frequency has a slash, "epoetin alfa 4000u 3x/wk" (not a combination)
    dose = _DOSE.search(key)
    if dose is not None and dose.start() > 0 and "/" in dose.group() and \
            not re.search(r"\b(?:and|with|plus)\b|[+,;&]", dose.group()) and \
            dose.group().count("/") == len(_PER_TIME.findall(dose.group())) + \
            len(_PER_KG.findall(dose.group())):
        key = key[:dose.start()]
    key = key.replace(" with meals", "")  # "Fiasp with meals": no second drug
    # one tablet of two drugs named by both (walk-through 71's "sacubitril/valsartan")
    key = re.sub(r"sacubitril\s?[/-]?\s?valsartan", "sacubitrilvalsartan", key)
    # a fixed-dose tablet's strengths, "Janumet 50/1000 bd": no second drug
    key = _STRENGTHS.sub("", key)
    drugs: set[str] = set()
    # "DRV/r + TDF/FTC": the boosted pairs first, as their own names
    for boosted in ("lpv/r", "drv/r", "atv/r"):
        if boosted in key.replace(" ", ""):
            drugs |= _COMBINATIONS[boosted]
            key = re.sub(rf"{boosted[:3]}\s*/\s*r\b", " + ", key)
    for part in _SPLIT.split(key):
        if not part:
            continue
        found = _part_drugs(part)
        if found is None:
            return None
        drugs |= found
    return frozenset(drugs) if drugs else None


def same_regimen(answer: str, other: str, column: str | None) -> bool:
    """Whether two answers of a regimen column (:data:`REGIMEN_COLUMN`) name the same
    drugs (:func:`drug_set`; a sequence, "->" or "then", in the same order) and the same
    dose, or neither a dose: "Ocrevus (ocrelizumab)", "OCREVUS" and "ocrelizumab" are one
    answer beyond doubt (walk-through 85's current therapy wrote them 5 ways; unmerged, a
    patient on one spelling found none of the others among their look-alikes), and so are
    "Eliquis 5mg bd" and "apixaban 5mg BD" (walk-through 87). A dose may tell patients
    apart ("apixaban 2.5mg" and "apixaban 5mg"): an answer with a dose and one without
    are offered, not merged, and two doses are never one answer.

    Examples
    --------
    >>> same_regimen("Tysabri", "natalizumab", "Current DMT")
    True
    >>> same_regimen("apixaban 2.5mg bd", "apixaban", "Anticoagulant")
    False
    >>> same_regimen("Eliquis 5mg bd", "apixaban 5 mg BD", "Anticoagulant")
    True
    >>> same_regimen("Tysabri", "natalizumab", "Ward")
    False
    """
    if not column or not REGIMEN_COLUMN.search(str(column)):
        return False
    keys = [norm_key(a) for a in (answer, other)]
    if any(len(k) > _MAX_LENGTH for k in keys):
        return False
    doses = [dose_key(k) for k in keys]
    if doses[0] != doses[1] and not _same_dose(doses[0], doses[1]):
        return False
    found = [_drug_steps(k) for k in keys]
    return found[0] is not None and found[0] == found[1]


def dose_key(answer: str) -> tuple[tuple[float, ...], str | None] | None:
    """The dose an answer writes, as its numbers and how often (doses a day where it
    says: "bd" and "twice daily" are "2/d"); None without a dose.

    >>> dose_key("Eliquis 2.5 bd"), dose_key("apixaban 5mg BD"), dose_key("Tysabri")
    (((2.5,), '2/d'), ((5.0,), '2/d'), None)
    """
    key = norm_key(answer)
    found = list(_DOSE_NUMBER.finditer(key))
    if not found:
        return None
    # how often: the words after the last dose, one name per number a day ("bd", "bid"
    # and "twice daily"); other words as written ("eow" is not "weekly")
    tail = key[found[-1].end():].strip(" ,.")
    return (tuple(float(m.group(1) or m.group(2)) for m in found),
            _OFTEN.get(tail, tail) or None)


def _same_dose(a: tuple | None, b: tuple | None) -> bool:
    """Two doses with the same numbers, one of them silent on how often ("Lixiana 60mg",
    "edoxaban 60mg OD")."""
    return a is not None and b is not None and a[0] == b[0] and (a[1] is None or b[1] is None)


def regimen_label(spellings: list[str], chosen: str) -> str | None:
    """How a merged answer of several spellings of one regimen is shown (None: as
    ``chosen``, the spelling :func:`~sparge.data.levels.shown_answer` picked). Without a
    dose, by its generic names ("Natalizumab" for "Tysabri" and "natalizumab EID
    6-weekly"), a sequence in its order ("warfarin → apixaban", not "apixaban + warfarin":
    a switch is no dual therapy, walk-through 87). With a dose, the spelling that names
    the generic drug with it ("apixaban 5mg BD" for it and "Eliquis 5mg bd"), not the bare
    name: two doses kept apart were both shown "Apixaban". Spellings of several doses
    (merged by the user) by the generic name ("Darbepoetin", not one patient's dose on
    every patient: walk-through 56)."""
    steps = {_drug_steps(norm_key(w)) for w in spellings}
    held = next(iter(steps)) if len(steps) == 1 else None
    if not held or any("(no drug)" in step for step in held):
        return None
    doses = [dose_key(w) for w in spellings]
    if all(d is not None and (d == doses[0] or _same_dose(d, doses[0])) for d in doses):
        # one dose, every spelling writes it: the generic drug's spelling with it
        if len(held) > 1:
            return None
        generic = " + ".join(sorted(held[0]))
        named = [w for w in spellings if norm_key(w).startswith(generic)]
        # ... without a note in brackets: walk-through 93's Humira and Amgevita showed as
        # "adalimumab (Imraldi) 40mg 2-weekly", a biosimilar they were not on
        return max(named, key=lambda w: ("(" not in w, len(w))) if named else None
    # a chemotherapy regimen by its acronym, as written ("FOLFIRINOX", not its four drugs;
    # "FEC-T", not "cyclophosphamide + epirubicin + fluorouracil → docetaxel")
    # ... the plain one before its modified schedule ("FOLFIRINOX", not "mFOLFIRINOX" for
    # every patient), then the shortest, then the one chosen
    names = _REGIMEN_ACRONYMS.keys() | _SEQUENCE_NAMES.keys()
    acronyms = {w: k for w in spellings if (k := norm_key(w).replace(" ", "")) in names}
    if acronyms:
        best = min(acronyms, key=lambda w: (acronyms[w][:1] == "m" and acronyms[w][1:] in names
                                            or acronyms[w][-1:].isdigit(), len(w),
                                            w != chosen, w))
        return None if best == chosen else best
    if len(held) > 1:
        return " → ".join(" + ".join(sorted(step)) for step in held)
    generic = " + ".join(sorted(held[0]))
    return generic if brand_or_dose(chosen) or norm_key(chosen) != generic else None


#: Sequences of regimens named as one: FEC then docetaxel (walk-through 105's "FEC-T"
#: beside "FEC 100 x3 -> docetaxel x3").
_SEQUENCE_NAMES = {k: "fec -> docetaxel" for k in ("fec-t", "fect", "fec100-t", "fec-d",
                                                     "fec100-d", "fec-docetaxel",
                                                     "fec100t")}


def _drug_steps(key: str) -> tuple[frozenset[str], ...] | None:
    """The drugs of an answer step by step, in the order a sequence ("->", "then") writes
    them: "glatiramer -> fingolimod" and "fingolimod -> glatiramer" are two histories, not
    one (the same drugs merged by default lost which came first)."""
    key = _SEQUENCE_NAMES.get(key.replace(" ", ""), key)
    steps = tuple(drug_set(step) for step in _SEQUENCE.split(key) if step.strip())
    return steps if steps and all(s is not None for s in steps) else None


def _word_set(answer: str) -> frozenset[str] | None:
    """The words of an answer split at its combination marks, when it has two or more."""
    key = norm_key(answer)
    if len(key) > _MAX_LENGTH:
        return None
    parts = [p for p in _SPLIT.split(key) if p]
    return frozenset(parts) if len(parts) >= 2 and len(set(parts)) == len(parts) else None


def _target_rank(answer: str) -> tuple[int, bool, bool, int, str]:
    """The answer a group's others are paired with: the most parts, each a drug's own
    name or abbreviation ("BIC/FTC/TAF", not "B/F/TAF" or "Biktarvy"); one drug by its
    generic name ("amoxicillin", not "amox" or "Amoxil": walk-through 60); then the
    shortest."""
    key = norm_key(answer)
    dose = _DOSE.search(key) if len(key) <= _MAX_LENGTH else None
    if dose is not None and dose.start() > 0:  # "co-amoxiclav 30mg/kg tds": one drug
        key = key[:dose.start()]
    parts = [p.replace(" ", "").replace("-", "") for p in _SPLIT.split(key) if p]
    generic = len(parts) == 1 and parts[0] in _DRUGS and \
        parts[0] == _DRUGS[parts[0]].replace(" ", "").replace("-", "")
    return (-len(parts), not all(p in _DRUGS for p in parts), not generic, len(answer),
            answer)


def combination_pairs(levels: list[str], column: str | None) -> list[tuple[str, str]]:
    """Pairs ``(answer, target)`` of a regimen column's answers that name the same drugs
    (:func:`drug_set`) or the same parts in another order; the target of each group is
    its answer written drug by drug (:func:`_target_rank`)."""
    if not column or not REGIMEN_COLUMN.search(str(column)):
        return []
    groups: dict[object, list[str]] = {}
    for lv in levels:
        found = drug_set(lv)
        key = found if found is not None else _word_set(lv)
        k = norm_key(lv)
        # a sequence, written out or by its name ("FEC-T" beside "FEC x3 -> docetaxel
        # x3": walk-through 105): its drugs in order
        if found is not None and (_SEQUENCE.search(k) or k.replace(" ", "") in _SEQUENCE_NAMES):
            key = _drug_steps(k) or key
        if key is not None:
            groups.setdefault(key, []).append(lv)
    out = []
    for answers in groups.values():
        for same in _by_dose(answers):
            if len(same) >= 2:
                target = min(same, key=_target_rank)
                out += [(a, target) for a in same if a != target]
    return out


def _by_dose(answers: list[str]) -> list[list[str]]:
    """Answers naming the same drugs, grouped so that no group holds two doses: with one
    dose written (or none), one group; with several, one per dose and one of the answers
    without a dose (walk-through 87 was offered "dabigatran 150 BD" into "dabigatran
    110mg bd", and one click merged every reduced dose into the full one)."""
    doses = {a: dose_key(a) for a in answers}
    written: list = []
    for d in doses.values():
        if d is not None and not any(d == w or _same_dose(d, w) for w in written):
            written.append(d)
    if len(written) <= 1:
        return [answers]
    groups: list[list[str]] = [[] for _ in written] + [[]]  # the last: no dose
    for a in answers:  # each answer in one group: the first dose it is
        d = doses[a]
        groups[next((i for i, w in enumerate(written) if d is not None
                     and (d == w or _same_dose(d, w))), len(written))].append(a)
    return groups
