"""One regimen written several ways (walk-through 37's HIV clinic: 6 regimens, 22 codes)."""

from __future__ import annotations

from sparge.data.drug_combinations import combination_pairs, drug_set
from sparge.data.levels import abbreviated_levels


def test_a_regimen_is_the_set_of_drugs_it_names():
    tld = drug_set("TDF/3TC/DTG")
    assert tld == {"tenofovir disoproxil", "lamivudine", "dolutegravir"}
    for same in ("TLD", "Tenofovir/lamivudine/dolutegravir", "tdf + 3tc + dtg",
                 "DTG and 3TC and TDF"):
        assert drug_set(same) == tld, same
    assert drug_set("Atripla") == drug_set("efavirenz + truvada") == drug_set("TDF/FTC/EFV")
    assert drug_set("Biktarvy") == drug_set("B/F/TAF") == drug_set("BIC/FTC/TAF")
    # the boosted protease inhibitor: "DRV/r" is darunavir with ritonavir
    assert drug_set("DRV/r + TDF/FTC") == drug_set("Truvada + darunavir/ritonavir") == {
        "darunavir", "ritonavir", "tenofovir disoproxil", "emtricitabine"}
    # tenofovir alafenamide is not tenofovir disoproxil
    assert drug_set("TAF/FTC") != drug_set("Truvada")
    # a part that names no drug known here: no set
    assert drug_set("TDF/FTC/new trial drug") is None and drug_set("not done") is None


def test_answers_naming_one_regimen_are_pairs_in_a_regimen_column_only():
    levels = ["Triumeq", "ABC/3TC/DTG", "abacavir/lamivudine/dolutegravir", "Biktarvy",
              "BIC/FTC/TAF", "B/F/TAF", "TDF/FTC", "Kivexa + DTG", "FOLFOX/bev",
              "bev + FOLFOX", "Other"]
    pairs = dict(combination_pairs(levels, "ART regimen"))
    assert pairs == {"Triumeq": "ABC/3TC/DTG", "abacavir/lamivudine/dolutegravir":
                     "ABC/3TC/DTG", "Kivexa + DTG": "ABC/3TC/DTG",
                     "Biktarvy": "BIC/FTC/TAF", "B/F/TAF": "BIC/FTC/TAF",
                     # unknown drugs, the same parts in another order
                     "bev + FOLFOX": "FOLFOX/bev"}
    assert combination_pairs(levels, "Ratio") == []  # "A/B" may be anything elsewhere
    assert ("Triumeq", "ABC/3TC/DTG") in abbreviated_levels(levels, "Current regimen")


def test_never_and_previous_are_no_and_yes_in_a_history_column():
    levels = ["Yes", "No", "Y", "N", "never", "previous TB", "previous MI"]
    pairs = abbreviated_levels(levels, "TB history")
    assert ("never", "No") in pairs and ("previous TB", "Yes") in pairs
    assert not any(a == "previous MI" for a, _ in pairs)  # not this column's event
    assert not any(a == "never" for a, _ in abbreviated_levels(levels, "TB at 6 months"))


def test_a_rheumatology_clinics_dmards_by_abbreviation_brand_route_and_rate():
    """A csDMARD list or a biologic is written by abbreviation ("MTX", "SSZ", "HCQ"),
    brand or biosimilar ("Humira", "Amgevita", "Benepali"), with a route and a rate with
    slashes ("15mg/wk s/c": the "c" was read as cobicistat)."""
    from sparge.data.drug_combinations import drug_set

    assert drug_set("MTX 15mg/wk s/c") == drug_set("methotrexate 20mg weekly") == {
        "methotrexate"}
    assert drug_set("RoActemra 162mg s/c weekly") == {"tocilizumab"}
    assert drug_set("methotrexate 20mg/wk, SSZ 1g bd, HCQ 200mg") == {
        "methotrexate", "sulfasalazine", "hydroxychloroquine"}
    assert drug_set("Humira 40mg eow") == drug_set("Amgevita 40mg fortnightly") == \
        drug_set("biosimilar adalimumab") == {"adalimumab"}
    assert drug_set("Benepali 50mg weekly") == {"etanercept"}
    assert drug_set("Depo-Medrone 120mg IM") == {"methylprednisolone"}
    assert drug_set("pred 5mg od") == {"prednisolone"}
    # the HIV and kidney clinics' regimens read as before
    assert drug_set("epoetin alfa 4000u 3x/wk") == {"epoetin"}
    assert drug_set("DRV/r + TDF/FTC") == {"darunavir", "ritonavir", "emtricitabine",
                                           "tenofovir disoproxil"}
