// The import form: a picked record file is read into the text box, so one form sends either.
const file = document.getElementById("record-file");
const box = document.getElementById("record");
if (file && box) {
  file.addEventListener("change", () => {
    const picked = file.files && file.files[0];
    if (!picked) return;
    if (picked.size > 256 * 1024) {
      box.value = "";
      box.setCustomValidity("That file is too large to be a game record.");
      box.reportValidity();
      return;
    }
    box.setCustomValidity("");
    picked.text().then((text) => { box.value = text; });
  });
}
