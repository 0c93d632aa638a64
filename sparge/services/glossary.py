"""The words of the app and the lecture, defined once: a glossary for a teacher's class.

Each :class:`Term` says what a word means *in this app* (the look-alike distance the
model uses, the measures the held-out check reports, the lecture's symbols), and where it
is met: a lecture step (:data:`sparge.services.teaching.STEPS`, by key) and the app's
pages. The numbers in the definitions come from the code's own constants, so a changed
default cannot leave the glossary saying the old one.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from sparge.services.lookalike_check import SHARE_BANDS
from sparge.services.teaching import STEPS
from sparge.services.typicality import ATYPICAL_SHARE

#: Look-alikes listed by default (Explore's slider, the New patient page, the check).
LOOKALIKES = 10
#: Look-alikes whose vote the held-out check scores.
VOTE = 5


@dataclass(frozen=True)
class Term:
    """One entry: the word, what it means here, and where it is met.

    ``step`` is the key of the lecture step that shows it (or ``None``); ``pages`` the
    app's pages where it appears.
    """

    term: str
    meaning: str
    step: str | None = None
    pages: tuple[str, ...] = ()


GLOSSARY: tuple[Term, ...] = (
    Term("Look-alike",
         "A patient of the cohort close to a given patient under the model's look-alike "
         f"distance. The app lists the {LOOKALIKES} nearest by default (the lecture's toy "
         "5); a patient is never its own look-alike.", "lookalikes",
         ("Explore", "New patient")),
    Term("Look-alike distance",
         "d² = ‖y_i − y_j‖² in the learned space, plus the forest part when the model has "
         "one: smaller means more alike. Only distances of one model can be compared.",
         "lookalikes", ("Explore", "New patient")),
    Term("Similarity",
         "exp(−d²/h) of the look-alike distance d, between 0 and 1 (1: identical in the "
         "learned space). h is twice the squared distance within which 90 % of the "
         "training patients' look-alikes lie. Not a percentage, and on one model's scale "
         "only.", "lookalikes", ("Explore", "New patient")),
    Term("Sparse weight",
         "Weights that rebuild a patient's point in the learned space from its listed "
         "look-alikes: non-negative, summing to one, mostly zero. A zero says the other "
         "listed look-alikes already rebuild the patient without that one; it can happen "
         "to the closest.", "lookalikes", ("Explore", "New patient")),
    Term("Learned space (embedding)",
         "The few coordinates y_i = Θ Uᵀ f_i the model gives every patient. Euclidean "
         "distance there is the paper's patient similarity (the look-alikes add the "
         "forest's proximity to it); the maps are pictures of the space.",
         "embedding", ("Explore", "Model", "Classifiers")),
    Term("Standard deviation (SD) units",
         "A value minus the cohort's mean, divided by the biomarker's standard deviation: "
         "every biomarker on one scale before the model reads it. A lab value spanning "
         "orders of magnitude is compared by its logarithm.", "data",
         ("Explore", "New patient")),
    Term("Gap (missing value)",
         "A biomarker not measured for a patient. The model completes gaps from the "
         "patient's measured values; a gap is never read as zero or No (unless, on the "
         "Data page, a register column's empty cells are chosen to mean No).", "data",
         ("Data", "New patient")),
    Term("Low-rank completion (soft-impute)",
         "Filling the gaps of the table with a matrix of few components: biomarkers move "
         "together, so a few patterns explain most of the table.", "completion"),
    Term("Singular value thresholding (SVT)",
         "The step of soft-impute that shrinks every singular value by λ and drops those "
         "below it: small components vanish, large ones survive.", "completion"),
    Term("Rank",
         "How many components the completion keeps: those whose singular values stay above "
         "λ after the shrinkage, at most the rank cap (the Model page's 'Gap filling': "
         "'all' sets no cap, 'auto' keeps those above the noise level).", "completion",
         ("Model",)),
    Term("Nuclear norm",
         "‖Z‖_*, the sum of a matrix's singular values: the completion's penalty, which "
         "SVT's shrinkage minimises; it favours matrices of few components.",
         "completion"),
    Term("Frobenius norm",
         "‖A‖_F, the square root of the sum of a matrix's squared entries: the size of a "
         "misfit over every patient and biomarker at once.", "completion"),
    Term("Probabilistic-PCA posterior (fill)",
         "How a patient's gaps are filled from its measured values through the kept "
         "components: strong components trusted, weak ones shrunk towards the cohort's "
         "mean. The same rule for training patients and new ones.", "completion"),
    Term("Ridge regression",
         "A least-squares fit with a small penalty on the coefficients' squares, which "
         "keeps them stable: how a filled row is projected on the kept components.",
         "completion"),
    Term("Dictionary, atom",
         "The atoms are typical patterns of biomarkers, each of length one; the dictionary "
         "D holds them side by side. With outcomes, one set of atoms is learned per "
         "outcome.", "dictionary", ("Model",)),
    Term("K-SVD",
         "The algorithm that learns the dictionary: it writes every patient with a few "
         "atoms (OMP), then replaces each atom by the best rank-1 fit of what its patients "
         "still miss, and repeats.", "dictionary"),
    Term("Orthogonal matching pursuit (OMP)",
         "A greedy choice of at most s atoms for a patient: the atom that explains most of "
         "what is left, one at a time.", "dictionary"),
    Term("Sparse code",
         "A patient's weights on the atoms, most of them exactly zero (an elastic net: the "
         "ℓ₁ term r₁ makes zeros, the small ℓ₂ term r₂ keeps the weights stable). Its "
         "sparsity: how few atoms it uses; a larger r₁ gives sparser codes.",
         "codes", ("Model",)),
    Term("Active set",
         "The atoms a patient's code uses (its non-zero weights), Λ in the formulas; on "
         "them the code has a closed form.", "codes"),
    Term("Representation (f_i)",
         "What the embedding projects for patient i: its sparse code next to its "
         "completed scores, or the code alone (the Model page's 'What is embedded'), c "
         "numbers long; F stacks them as rows.", "graphs", ("Model",)),
    Term("Marginal Fisher analysis (MFA)",
         "Graph embedding with two graphs built from the outcomes: same-outcome neighbours "
         "to pull together, other-outcome neighbours to push apart (Yan et al. 2007).",
         "graphs"),
    Term("Eigenvector, eigenvalue",
         "A direction a symmetric matrix only stretches, and by how much. The trace-ratio "
         "step takes the l eigenvectors of S⁺ − μS⁻ with the smallest eigenvalues.",
         "embedding"),
    Term("Intrinsic graph (W⁺), penalty graph (W⁻)",
         "Marginal Fisher analysis' two graphs: W⁺ joins every patient to its k₁ nearest "
         "patients with the same outcome (pulled together), W⁻ to its k₂ nearest with "
         "another outcome (pushed apart).", "graphs"),
    Term("Graph Laplacian",
         "L = Deg − W of a graph's edge weights W (Deg: each patient's total edge "
         "weight). Fᵀ L F measures how spread the graph's edges are in a representation F.",
         "graphs"),
    Term("Heat kernel",
         "An edge weight exp(−‖f_i − f_j‖²/t): close pairs weigh most.", "graphs"),
    Term("Trace ratio",
         "J(U) = tr(Uᵀ S⁺ U) / tr(Uᵀ S⁻ U): small when same-outcome edges are short and "
         "other-outcome edges long. The embedding is the U that minimises it.",
         "embedding"),
    Term("Stiefel manifold",
         "The set of matrices with orthonormal columns (UᵀU = I). A U on it rotates and "
         "drops directions but never stretches them.", "embedding"),
    Term("Early stopping",
         "Part of the training patients is held out during fitting, and the iterate whose "
         "look-alikes do best on them is kept, not the last one.", "refinement",
         ("Model",)),
    Term("Random-forest proximity",
         "The share of a random forest's trees in which two patients end in the same leaf. "
         "The model's forest part adds (1 − proximity) to the look-alike distance; the "
         "held-out check also scores it alone as a peer.", "lookalikes", ("Model",)),
    Term("Outcome",
         "The column the supervised parts learn from (the graphs, the forest, early "
         "stopping) and by which look-alikes are scored. A table without one still gets "
         "look-alikes, unsupervised.", None, ("Data", "Model", "Explore", "Classifiers")),
    Term("Held-out check",
         "On a few stratified 70/30 splits of your training patients, each representation "
         "is fitted on 70 % and the look-alikes of the other 30 % are scored: how far to "
         "trust the look-alikes on this cohort.", None, ("Model",)),
    Term("Stratified split",
         "A split into training and test patients that keeps each outcome's share the "
         "same in both.", None, ("Model", "Classifiers")),
    Term("Balanced accuracy",
         "The average over outcomes of the share of each outcome's patients predicted "
         "right (average per-class recall): chance is 1 / number of outcomes, however rare "
         f"an outcome. The check scores a vote of the {VOTE} nearest look-alikes.", None,
         ("Model", "Classifiers")),
    Term(f"Same outcome (precision@{LOOKALIKES})",
         f"The share of a patient's {LOOKALIKES} look-alikes with the patient's own outcome, "
         "averaged within each outcome and then over outcomes (class-balanced), so a rare "
         "outcome counts as much as a common one.", "lookalikes", ("Model",)),
    Term("k-nearest-neighbour (kNN) vote",
         "A prediction by the most common outcome among a patient's k nearest patients.",
         None, ("Model", "Classifiers")),
    Term("Raw features",
         "The encoded table itself (gaps filled by each column's median, every biomarker "
         "in SD units), the baseline every representation is compared with.", None,
         ("Model", "Classifiers")),
    Term("Cohort map (PCA, UMAP)",
         "A two-dimensional picture of the learned space. PCA keeps its two widest "
         "directions; UMAP keeps neighbourhoods. Distances on a map are approximate: the "
         "look-alikes are found in the full space.", None, ("Explore", "New patient")),
    Term("Unusual patient (typicality check)",
         "A new patient whose measured values fit the cohort's low-rank patterns worse "
         f"than {100 * ATYPICAL_SHARE:.0f} % of the training patients do: a typo, another "
         "unit or another population. Look-alikes are still found, with a warning.",
         "completion", ("New patient",)),
    Term("Interquartile range (IQR)",
         "The middle half of the values: from the 25th to the 75th percentile. Look-alikes' "
         "values are shown as median (IQR).", None, ("Explore", "New patient")),
    Term("Encoding table",
         "The number each text answer of a column is read as (the order of an ordered "
         "scale, or a code per answer), which the user can edit on the Data page.", None,
         ("Data",)),
    Term("Reliability of a look-alike share",
         "For held-out patients, how often the outcome was the one a given share of their "
         f"look-alikes had, in {SHARE_BANDS} bands of that share: what '7 of 10 look-alikes "
         "had it' meant on this cohort.", None, ("Model", "Explore")),
)


def _where(term: Term, titles: dict[str, str]) -> str:
    parts = []
    if term.step is not None:
        parts.append(f"lecture: {titles[term.step]}")
    if term.pages:
        parts.append(", ".join(term.pages))
    return "; ".join(parts)


def _found(word: str, text: str) -> bool:
    """Whether a searched word is in ``text``, as written or without a plural's ending
    ("codes" finds "Sparse code", "eigenvectors" finds "Eigenvector")."""
    stems = [word] + [word[:-len(end)] for end in ("es", "s")
                      if word.endswith(end) and len(word) - len(end) >= 3]
    return any(stem in text for stem in stems)


def glossary_frame(search: str = "") -> pd.DataFrame:
    """The glossary as a table (``Term``, ``Meaning``, ``Where``), alphabetical.

    Parameters
    ----------
    search : str
        Words to look for, case-insensitive; a term is kept when every word (or the word
        without a plural's ending) is in its name or its meaning (``"forest leaf"`` finds
        random-forest proximity). Empty: all.
    """
    titles = {s.key: s.title for s in STEPS}
    words = search.casefold().split()
    rows = [{"Term": t.term, "Meaning": t.meaning, "Where": _where(t, titles)}
            for t in GLOSSARY
            if all(_found(w, f"{t.term} {t.meaning}".casefold()) for w in words)]
    frame = pd.DataFrame(rows, columns=["Term", "Meaning", "Where"])
    return frame.sort_values("Term", key=lambda s: s.str.casefold(),
                             ignore_index=True)
